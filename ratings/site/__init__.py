"""The static website ``ratings publish`` writes: templates, assets, the builder.

:func:`ratings.site.build.publish_site` renders; :class:`ratings.site.output.SiteFolder` is
the only code that writes into the site's folder; :mod:`ratings.site.chart` holds the chart
specification shared with ``ratings plot``.
"""
