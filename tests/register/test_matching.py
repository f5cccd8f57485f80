"""The matcher (ratings/matching.py): a table of real-world spellings, the evidence, the
decision, and the blocking that keeps it off all pairs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.matching import Facts, Kind, Register, fold, sort_key
from ratings.service.register.identity import Identities, screen_aliases

FOLDED, ALIAS, INITIALS, MISSING, TYPO = (
    Kind.FOLDED,
    Kind.ALIAS,
    Kind.INITIALS,
    Kind.MISSING_WORDS,
    Kind.TYPO,
)
SWAPPED, NICKNAME, TRANSLIT, FIDE_TYPO, CUT = (
    Kind.SWAPPED,
    Kind.NICKNAME,
    Kind.TRANSLITERATION,
    Kind.FIDE_TYPO,
    Kind.CUT,
)
NEW = None

# (registered name, name as a file or a keyboard writes it, how it is found)
SPELLINGS = [
    # accents and letters of Western Europe
    ("Müller, Jan", "Muller, Jan", FOLDED),
    ("Müller, Jan", "Mueller, Jan", FOLDED),
    ("Müller, Jan", "MÜLLER Jan", FOLDED),
    ("Mueller, Jan", "Müller, Jan", FOLDED),
    ("Hernández, Elvis", "Hernandez Elvis", FOLDED),
    ("Argandoña Riveiro, Iñigo", "Argandona Riveiro Inigo", FOLDED),
    ("François, Loïc", "Francois, Loic", FOLDED),
    ("Gonçalves, João", "Goncalves Joao", FOLDED),
    ("Strauß, Jörg", "Strauss, Joerg", FOLDED),
    ("Strauß, Jörg", "STRAUSS JORG", FOLDED),
    ("Müller, Jan", "Mu\u0308ller, Jan", FOLDED),  # decomposed: u + combining diaeresis
    # Nordic
    ("Öberg, Åsa", "Oberg, Asa", FOLDED),
    ("Öberg, Åsa", "Oeberg, Aasa", FOLDED),
    ("Hansen, Søren Bech", "Hansen, Soren Bech", FOLDED),
    ("Hansen, Søren Bech", "Hansen, Soeren Bech", FOLDED),
    ("Ævarsson, Þór", "Aevarsson, Thor", FOLDED),
    ("Gunnarsson, Jón Viktor", "Gunnarsson Jon Viktor", FOLDED),
    ("Nyström, Pär", "Nystroem, Paer", FOLDED),
    ("Carlsen, Magnus", "Carlsen,M", INITIALS),
    # Slavic
    ("Novák, Jiří", "Novak Jiri", FOLDED),
    ("Novák, Jiří", "Novak, J.", INITIALS),
    ("Novák, Jiří", "Nowak, Jiri", TYPO),
    ("Novák, Jiří", "Novák, Jiřina", TYPO),
    ("Navara, David", "Navarra, David", TYPO),
    ("Wojtaszek, Radosław", "Wojtaszek, Radoslaw", FOLDED),
    ("Duda, Jan-Krzysztof", "Duda, Jan Krzysztof", FOLDED),
    ("Duda, Jan-Krzysztof", "Duda, J-K", INITIALS),
    ("Đorđević, Miloš", "Dordevic Milos", FOLDED),
    ("Đorđević, Miloš", "Djordjevic, Milos", TYPO),
    ("Šubelj, Jure", "Subelj, Jure", FOLDED),
    ("Kožul, Zdenko", "Kozul Zdenko", FOLDED),
    ("Cyborowski, Łukasz", "Cyborowski Lukasz", FOLDED),
    ("Kramnik, Vladimir", "Крамник, Владимир", FOLDED),
    ("Svidler, Peter", "Свидлер, Пётр", TYPO),
    ("Karpov, Anatoly", "Карпов, Анатолий", TYPO),
    ("Papadopoulos, Alexis", "Παπαδόπουλος, Αλέξης", TYPO),  # anyascii: omicron upsilon -> oy
    ("Papadopoylos, Alexis", "Παπαδόπουλος, Αλέξης", FOLDED),
    # Turkish dotless and dotted i
    ("Şahin, İlker", "Sahin, Ilker", FOLDED),
    ("Y\u0131lmaz, Mustafa", "Yilmaz, Mustafa", FOLDED),
    ("Y\u0131lmaz, Mustafa", "YILMAZ MUSTAFA", FOLDED),
    ("Erdoğmuş, Yağ\u0131z Kaan", "Erdogmus, Yagiz Kaan", FOLDED),
    ("Çak\u0131r, Ümit", "Cakir Umit", FOLDED),
    # Vietnamese
    ("Lê, Quang Liêm", "Le Quang Liem", FOLDED),
    ("Nguyễn, Ngọc Trường Sơn", "Nguyen Ngoc Truong Son", FOLDED),
    ("Nguyễn, Ngọc Trường Sơn", "Nguyen, N.T.S.", INITIALS),
    ("Nguyễn, Thị Mai Hưng", "Nguyen Thi Mai Hung", FOLDED),
    # Spanish double surnames
    ("García López, Juan", "Garcia, Juan", MISSING),
    ("García López, Juan", "Garcia-Lopez, Juan", FOLDED),
    ("García López, Juan", "Juan García López", FOLDED),
    ("Ladrón de Guevara Galar, Fco J", "Ladron De Guevara Galar Fco J", FOLDED),
    ("Rodríguez Cabrera, Francisco Javier", "Rodriguez Cabrera Fco. Javier", INITIALS),
    ("Martínez, José María", "Martinez, Jose M.", INITIALS),
    ("Fernández Zubitur, Jokin", "Fernandez Zubitur Jokin", FOLDED),
    # Dutch tussenvoegsels and other particles
    ("van der Berg, Jan", "Berg, Jan van der", FOLDED),
    ("van der Berg, Jan", "Vanderberg, Jan", FOLDED),
    ("van der Berg, Jan", "Jan van der Berg", FOLDED),
    ("Berg, Jan van der", "Vanderberg, Jan", FOLDED),
    ("de Vries, Erik", "DeVries, Erik", FOLDED),
    ("van Wely, Loek", "Wely, Loek van", FOLDED),
    ("van Wely, Loek", "Van Wely L", INITIALS),
    ("van den Berg, Jan", "van der Berg, Jan", TYPO),
    ("l'Ami, Erwin", "L'Ami Erwin", FOLDED),
    ("l'Ami, Erwin", "Lami, Erwin", FOLDED),
    ("O'Brien, Seán", "OBrien, Sean", FOLDED),
    ("O'Brien, Seán", "O Brien Sean", FOLDED),
    ("MacDonald, Iain", "Mac Donald, Iain", FOLDED),
    ("Ó Laighléis, Gearóidín", "O Laighleis, Gearoidin", FOLDED),
    ("Ó Laighléis, Gearóidín", "Uì Laighlèis,Gearoìdin", TYPO),
    # hyphens
    ("Vachier-Lagrave, Maxime", "Vachier Lagrave, Maxime", FOLDED),
    ("Vachier-Lagrave, Maxime", "Vachier Lagrave,M", INITIALS),
    ("Cramling, Pia", "Cramling-Bellon, Pia", MISSING),
    # initials
    ("Smith, John", "Smith, J.", INITIALS),
    ("Smith, John Robert", "Smith, J.R.", INITIALS),
    ("Smith, John", "J. Smith", INITIALS),
    ("Giri, Anish", "Giri,A", INITIALS),
    # Jr. and other additions
    ("Smith, John", "Smith Jr., John", MISSING),
    ("Smith Jr., John", "Smith, John Jr", FOLDED),
    ("Smith Jr., John", "Smith Jr, John", FOLDED),
    # transposed order, case, spacing, punctuation
    ("Carlsen, Magnus", "Magnus Carlsen", FOLDED),
    ("Carlsen, Magnus", "CARLSEN,MAGNUS", FOLDED),
    ("Ding, Liren", "Liren Ding", FOLDED),
    ("Ding, Liren", "DING  Liren", FOLDED),
    ("Ding, Liren", "Ding\u00a0Liren", FOLDED),  # a no-break space
    ("Mirzoev, Azer", "Mirzoev Azer", FOLDED),
    # typos
    ("Carlsen, Magnus", "Carslen, Magnus", TYPO),
    ("Nakamura, Hikaru", "Nakamura, Hikru", TYPO),
    ("Mirzoev, Azer", "Mirzoyev, Azer", TYPO),
    ("Elard, Carl", "Elard, Karl", TYPO),  # a first letter: the word sorts elsewhere
    # other people
    ("Smith, John", "Jones, Bob", NEW),
    ("Li, Na", "Li, Wu", NEW),
    ("Novák, Jiří", "Horák, Jan", NEW),
    ("Carlsen, Magnus", "Carlsson, Mats", NEW),
]


@pytest.mark.parametrize(("registered", "written", "kind"), SPELLINGS)
def test_real_world_spellings(registered: str, written: str, kind: Kind | None) -> None:
    register = Register()
    register.add_player(17, Facts(registered))
    found = register.match(Facts(written))
    if kind is None:
        assert found.candidates == ()
        assert found.is_new
        return
    assert [(c.player_id, c.kind) for c in found.candidates] == [(17, kind)]
    # rule 6: only a folded-exact name is certain
    assert (found.certain is not None) == (kind is FOLDED)


def test_the_table_has_sixty_spellings() -> None:
    assert len(SPELLINGS) >= 60


def test_fold_keys_and_words() -> None:
    assert fold("Novák, Jiří").key == fold("Jiri NOVAK").key == "jiri novak"
    assert set(fold("Müller, Jan").keys) == {"jan muller", "jan mueller"}
    assert set(fold("Berg, Jan van der").keys) == {"berg der jan van", "jan vanderberg"}
    assert fold("Öberg, Åsa").words == ("oberg", "asa")
    assert fold("...").keys == ()
    assert fold("").key == ""


def test_sort_key_keeps_the_order_written() -> None:
    names = ["Zeller, Ann", "Öberg, Åsa", "Oakes, Tom", "Ávila, Luis", "Berg, Bo"]
    assert sorted(names, key=sort_key) == [
        "Ávila, Luis",
        "Berg, Bo",
        "Oakes, Tom",
        "Öberg, Åsa",
        "Zeller, Ann",
    ]


def _register(*players: tuple[int, Facts]) -> Register:
    register = Register()
    for pid, facts in players:
        register.add_player(pid, facts)
    return register


def test_a_fide_id_decides_and_a_conflicting_one_is_never_a_match() -> None:
    register = _register((1, Facts("Mirzoev, Azer", fide_id=13400304)))
    same = register.match(Facts("Someone Else", fide_id=13400304))
    assert same.certain is not None
    assert same.certain.kind is Kind.FIDE_ID
    other = register.match(Facts("Mirzoev Azer", fide_id=13400999))
    assert other.candidates == ()
    assert other.other_fide_ids == (1,)
    # one digit off beside the same name: a question, never a new player silently
    typo = register.match(Facts("Mirzoev Azer", fide_id=13400305))
    assert typo.certain is None
    assert [(c.player_id, c.kind) for c in typo.candidates] == [(1, FIDE_TYPO)]
    # a side without an id is no conflict
    assert register.match(Facts("Mirzoev Azer")).certain is not None


def test_evidence_for_and_against() -> None:
    register = _register(
        (17, Facts("Novák, Jiří", birth_year=1984, sex="m", federation="CZE")),
    )
    agree = register.match(Facts("Novak Jiri", birth_year=1984, federation="cze"))
    assert agree.certain is not None
    assert agree.certain.evidence_for == ("birth year", "federation")
    differ = register.match(Facts("Novak Jiri", birth_year=1985, sex="f"))
    assert differ.certain is None
    assert differ.candidates[0].evidence_against == ("birth year", "sex")
    # a club code is no federation to compare
    club = register.match(Facts("Novak Jiri", federation="C.C"))
    assert club.certain is not None
    assert club.certain.evidence_against == ()
    # a difference explained by a correction is no evidence against
    excused = register.match(
        Facts("Novak Jiri", birth_year=1985), excused=lambda pid, f: f == "birth year"
    )
    assert excused.certain is not None


def test_two_namesakes_are_uncertain_unless_the_evidence_tells_them_apart() -> None:
    register = _register(
        (17, Facts("Novák, Jiří", birth_year=1984)), (18, Facts("Novak, Jiri", birth_year=2010))
    )
    assert register.match(Facts("Novak Jiri")).certain is None
    assert [c.player_id for c in register.match(Facts("Novak Jiri")).candidates] == [17, 18]
    son = register.match(Facts("Novak Jiri", birth_year=2010)).certain
    assert son is not None
    assert son.player_id == 18
    # evidence against one of them alone is not enough: the other needs evidence for it
    register = _register((17, Facts("Novák, Jiří")), (18, Facts("Novak, Jiri", birth_year=2010)))
    assert register.match(Facts("Novak Jiri", birth_year=1984)).certain is None


def test_an_alias_decides_over_a_folded_name() -> None:
    register = _register((17, Facts("Novák, Jiří", birth_year=1984)), (53, Facts("Novak Jiri")))
    assert register.match(Facts("Novak Jiri")).certain is None
    register.add_alias(53, "Novak Jiri")
    # an alias never outweighs a registered player's own name: 17 is still a question
    assert register.match(Facts("NOVAK, Jiri")).certain is None
    register.add_alias(53, "Jiri Novak ml.")
    found = register.match(Facts("NOVAK, Jiri ml."))
    assert found.certain is not None
    assert (found.certain.player_id, found.certain.kind) == (53, Kind.ALIAS)
    # the alias of a player whose data contradicts the file is a question again
    register.add_alias(17, "Novák J.")
    assert register.match(Facts("Novak J.", birth_year=1990)).certain is None
    assert register.match(Facts("Novak J.")).certain is not None


def test_players_the_file_creates_match_its_later_lines_only_by_folded_name() -> None:
    register = _register((17, Facts("Smith, John")))
    register.add_player(-1, Facts("Jones, Bob"), registered=False)
    later = register.match(Facts("JONES Bob"))
    assert later.certain is not None
    assert later.certain.player_id == -1
    # no near names among them
    assert register.match(Facts("Jones, B.")).candidates == ()


def test_candidates_come_best_first() -> None:
    register = _register(
        (1, Facts("Novák, Jan")),
        (2, Facts("Novák, Jiří", birth_year=1984)),
        (3, Facts("Nowak, Jiri")),
        (4, Facts("Novák, Jiří", birth_year=1990)),
    )
    found = register.match(Facts("Novak, J.", birth_year=1984))
    assert [(c.player_id, c.kind) for c in found.candidates] == [
        (2, INITIALS),
        (1, INITIALS),
        (4, INITIALS),
    ]


def test_blocking_compares_only_names_that_share_a_word_or_its_first_letters() -> None:
    register = Register()
    for i in range(20_000):
        register.add_player(i + 1, Facts(f"Player{i:05d}, Given{i:05d}"))
    register.add_player(30_000, Facts("Carlsen, Magnus"))
    assert [c.player_id for c in register.match(Facts("Carlsn, Magnus")).candidates] == [30_000]
    # a word listed under more than BLOCK_LIMIT names is used only with a second word
    common = Register()
    for i in range(6_000):
        common.add_player(i + 1, Facts(f"Garcia, Name{i:04d}x"))
    common.add_player(9_999, Facts("Garcia, Juan"))
    assert [c.player_id for c in common.match(Facts("Garcia Juan Jr")).candidates] == [9_999]
    assert common.match(Facts("Garcia")).candidates == ()


# --- evidence both ways, and the candidates that are never automatic ------------------------

MATCH, ASK = "match", "ask"
CHRISTIAN = Facts("Sánchez Merino, Christian", fide_id=22244913, birth_year=1996, sex="m")
ADULT = Facts("Novák, Jiří", birth_year=1980)

# (class, registered players, incoming player, outcome, the candidate's kind)
EVIDENCE: list[tuple[str, tuple[Facts, ...], Facts, str | None, Kind | None]] = [
    # relatives sharing a FIDE id: the id alone never joins two people
    ("relatives sharing a FIDE id", (CHRISTIAN,),
     Facts("Sanchez Merino, David", fide_id=22244913, birth_year=2005), ASK, Kind.FIDE_ID),
    ("relatives sharing a FIDE id", (CHRISTIAN,),
     Facts("Sanchez Merino, David", fide_id=22244913), ASK, Kind.FIDE_ID),
    ("relatives sharing a FIDE id", (CHRISTIAN,),
     Facts("Sanchez Merino Christian", fide_id=22244913, birth_year=2005), ASK, Kind.FIDE_ID),
    ("relatives sharing a FIDE id", (CHRISTIAN,),
     Facts("Sanchez Merino, C.", fide_id=22244913, birth_year=1996), MATCH, Kind.FIDE_ID),
    ("relatives sharing a FIDE id", (CHRISTIAN,),
     Facts("Sanchez Merino, Christian", fide_id=22244913, sex="f"), ASK, Kind.FIDE_ID),
    ("relatives sharing a FIDE id", (CHRISTIAN,),  # a transfer: the federation alone does not
     Facts("Sanchez Merino, Christian", fide_id=22244913, federation="AND"), MATCH,
     Kind.FIDE_ID),
    # swapped order with commas: the comma says which word is the surname
    ("swapped order with commas", (Facts("Thomas, James"),), Facts("James, Thomas"), ASK,
     SWAPPED),
    ("swapped order with commas", (Facts("Martin, Thomas"),), Facts("Thomas, Martin"), ASK,
     SWAPPED),
    ("swapped order with commas", (Facts("Thomas, James"),), Facts("James Thomas"), MATCH,
     FOLDED),  # one side without a comma: order-free
    ("swapped order with commas", (Facts("Thomas, James"),), Facts("THOMAS,JAMES"), MATCH,
     FOLDED),
    # particles never cross the comma
    ("particles", (Facts("Deanna, Smith"),), Facts("De, Anna Smith"), ASK, INITIALS),
    ("particles", (Facts("van der Berg, Jan"),), Facts("Berg, Jan van der"), MATCH, FOLDED),
    ("particles", (Facts("de Vries, Erik"),), Facts("DeVries, Erik"), MATCH, FOLDED),
    # a far rating is evidence against
    ("far rating", (Facts("Novák, Jiří", rating=1900),), Facts("Novak, Jiri", rating=1000),
     ASK, FOLDED),
    ("far rating", (Facts("Novák, Jiří", rating=1900),), Facts("Novak, Jiri", rating=1750),
     MATCH, FOLDED),
    ("far rating", (Facts("Novák, Jiří", fide_id=1234567, rating=1900),),
     Facts("Novak, Jiri", fide_id=1234567, rating=1000), ASK, Kind.FIDE_ID),
    # transliterations
    ("transliterations", (Facts("Nepomniachtchi, Ian"),), Facts("Nepomnyashchy, Ian"), ASK,
     TRANSLIT),
    ("transliterations", (Facts("Grischuk, Alexander"),), Facts("Grichtchouk, Alexander"),
     ASK, TRANSLIT),
    ("transliterations", (Facts("Yakovenko, Dmitry"),), Facts("Jakovenko, Dmitrij"), ASK,
     TRANSLIT),
    ("transliterations", (Facts("Zhang, Wei"),), Facts("Chang, Wei"), ASK, TYPO),
    ("transliterations", (Facts("Cao, Yang"),), Facts("Tsao, Yang"), ASK, TRANSLIT),
    ("transliterations", (Facts("Xie, Jun"),), Facts("Hsieh, Jun"), ASK, TRANSLIT),
    ("transliterations", (Facts("Nepomniachtchi, Ian"),), Facts("Nakamura, Ian"), None, None),
    # nicknames (the nicknames package's table)
    ("nicknames", (Facts("Smith, Anthony"),), Facts("Smith, Tony"), ASK, NICKNAME),
    ("nicknames", (Facts("Jones, William"),), Facts("Bill Jones"), ASK, NICKNAME),
    ("nicknames", (Facts("Jones, William"),), Facts("Jones, Mary"), None, None),
    # one-digit FIDE ids beside the same name
    ("one-digit FIDE ids", (Facts("Mirzoev, Azer", fide_id=13400304),),
     Facts("Mirzoev, Azer", fide_id=13400340), ASK, FIDE_TYPO),  # two neighbours swapped
    ("one-digit FIDE ids", (Facts("Mirzoev, Azer", fide_id=13400304),),
     Facts("Mirzoev, Azer", fide_id=13400307), ASK, FIDE_TYPO),
    ("one-digit FIDE ids", (Facts("Mirzoev, Azer", fide_id=13400304),),
     Facts("Mirzoev, Azer", fide_id=13411104), None, None),
    # a name cut at the TRF's 33 characters
    ("cut names", (Facts("Ladrón de Guevara Galar, Francisco Javier"),),
     Facts("Ladron de Guevara Galar, Francisc", cut=True), ASK, CUT),
    ("cut names", (Facts("Ladrón de Guevara Galar, Francisco Javier"),),
     Facts("Ladron de Guevara Galar, Francisc"), None, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("registered", "incoming", "outcome", "kind"),
    [pytest.param(*case[1:], id=f"{case[0]}: {case[2].name}") for case in EVIDENCE],
)
def test_evidence_and_candidates(
    registered: tuple[Facts, ...], incoming: Facts, outcome: str | None, kind: Kind | None
) -> None:
    register = _register(*((pid, facts) for pid, facts in enumerate(registered, 1)))
    found = register.match(incoming)
    if outcome is None:
        assert found.candidates == ()
        return
    assert found.candidates[0].kind is kind
    assert (found.certain is not None) == (outcome == MATCH)


def test_namesakes_decided_with_new_ask_again_without_the_evidence() -> None:
    """A --new for a namesake keeps the alias with the evidence that told them apart: a file
    that gives it finds the junior, one that lacks it asks again, one that contradicts it
    finds the adult."""
    register = _register((1, ADULT), (2, Facts("Novák, Jiří", birth_year=2010)))
    register.add_alias(2, "Novak Jiri", needs=Facts("Novak Jiri", birth_year=2010))
    junior = register.match(Facts("Novák, Jiří", birth_year=2010)).certain
    assert junior is not None
    assert junior.player_id == 2
    assert register.match(Facts("Novák, Jiří")).certain is None
    adult = register.match(Facts("Novák, Jiří", birth_year=1980)).certain
    assert adult is not None
    assert adult.player_id == 1
    # the junior registered without a birth year: only the alias's evidence tells them apart
    register = _register((1, ADULT), (2, Facts("Novak, Jiri ml.")))
    register.add_alias(2, "Novák, Jiří", needs=Facts("Novák, Jiří", birth_year=2010))
    kept = register.match(Facts("Novak Jiri", birth_year=2010)).certain
    assert kept is not None
    assert (kept.player_id, kept.kind) == (2, ALIAS)
    lacking = register.match(Facts("Novak Jiri"))
    assert lacking.certain is None
    assert {c.player_id for c in lacking.candidates} == {1, 2}


# --- no decision hands a registered name to another player -----------------------------------

_POOL = ("Novák, Jiří", "Novak Jiri", "Smith, Ann", "Ann Smith", "Novák, Jan", "Smith, A.")


@given(
    registered=st.lists(
        st.tuples(st.sampled_from(_POOL), st.sampled_from((None, 1980, 2010))),
        min_size=1,
        max_size=5,
    ),
    decisions=st.lists(
        st.tuples(
            st.sampled_from(_POOL),
            st.one_of(st.none(), st.integers(1, 5)),  # None: --new
            st.sampled_from((None, 1980, 2010)),  # the birth year the file gives
        ),
        max_size=6,
    ),
)
@settings(max_examples=150, deadline=None)
def test_no_decision_attaches_a_registered_name_to_another_player(
    registered: list[tuple[str, int | None]],
    decisions: list[tuple[str, int | None, int | None]],
) -> None:
    """Whatever --new and --match decisions are kept (as imports keep them: screened, with
    the evidence that told players apart), a file that writes a registered player's exact
    name, with nothing else, is that player or a question: never another player."""
    register = Register()
    names: dict[int, str] = {}
    for pid, (name, year) in enumerate(registered, 1):
        register.add_player(pid, Facts(name, birth_year=year))
        names[pid] = name
    identities = Identities(register, names)
    for name, target, year in decisions:
        said = Facts(name, birth_year=year)
        if target is None or target not in names:  # --new: a player created from the file
            target = max(names) + 1
            register.add_player(target, said)
            names[target] = name
        kept, _ = screen_aliases(identities, [(name, target, "match", said)])
        for spelling, pid, _, needs in kept:
            register.add_alias(pid, spelling, needs)
    for pid, name in names.items():
        found = register.match(Facts(name)).certain
        assert found is None or found.player_id == pid, (name, pid, found)
