"""The registry declares every command once; the binder reads lines by that declaration."""

from __future__ import annotations

import pytest

from commands.binding import bind
from commands.catalog import en
from commands.params import Args
from commands.parsing import parse
from commands.registry import BY_NAME, BY_PATH, bind_line, every_command, select
from commands.replies import msg
from tournament.model import Refused


def bound(line: str) -> Args:
    parsed = parse(line)
    spec, words = select(BY_NAME[parsed.name], parsed)
    return bind_line(spec, words, parsed)


def refusal(line: str) -> Refused:
    with pytest.raises(Refused) as caught:
        bound(line)
    return caught.value


def test_every_command_has_a_summary_a_handler_and_described_parameters() -> None:
    for spec in every_command():
        assert spec.summary_key in en.MESSAGES, spec.name
        assert (spec.handler is None) == (spec.scope == "chat"), spec.name
        names = [p.name for p in spec.signature.params]
        assert len(names) == len(set(names)), spec.name
        for param in spec.signature.params:
            assert param.description_key in en.MESSAGES, (spec.name, param.name)
            assert param.type != "choice" or param.choices, (spec.name, param.name)


def test_every_command_accepts_the_tournament_option() -> None:
    for spec in every_command():
        keys = [
            k
            for p in spec.signature.params
            if p.type == "tournament"
            for k in (p.name, *p.aliases)
        ]
        assert "tournament" in keys, spec.name


def test_subcommands_are_declared_with_their_own_parameters() -> None:
    assert {s.word for s in BY_NAME["tournament"].subcommands} >= {"new", "info"}
    assert {s.word for s in BY_NAME["club"].subcommands} == {"link", "join", "confirm", "web"}
    assert BY_PATH["club join"].scope == "chat"
    assert [p.name for p in BY_PATH["report game"].params][:2] == ["kind", "cube"]
    assert bound("/club join abc123").command == "club join"
    assert bound("/club join abc123").text("code") == "abc123"


def test_a_name_needs_no_quotes_around_a_score() -> None:
    args = bound("/result Alice Moreno 7-6 Gina R.")
    assert args.values["player"] == "Alice Moreno"
    assert args.values["opponent"] == "Gina R."
    assert args.scores() == [(7, 6)]


def test_a_match_number_or_players_with_tiebreaks() -> None:
    assert bound("/result #5 2-2 3-1").values == {"match": 5, "score": [(2, 2), (3, 1)]}
    assert bound("/result 5 3 - 1").scores() == [(3, 1)]


def test_a_score_said_in_words_between_the_numbers_is_a_score() -> None:
    for said in ("3 to 1", "3 a 1", "3 do 1", "3 la 1", "3 x 1", "3 A 1"):
        assert bound(f"/report {said}").scores() == [(3, 1)], said
    assert bound("/result 5 7 a 5").values == {"match": 5, "score": [(7, 5)]}
    assert bound("/result rocio 7 a 5 alex").values["player"] == "rocio"


def test_a_score_said_all_in_words_is_a_score() -> None:
    for said in ("three to one", "tres a uno", "trzy do jednego", "trei la unu", "Trzy do 1"):
        assert bound(f"/report {said}").scores() == [(3, 1)], said
    assert bound("/report pięć do dwóch").scores() == [(5, 2)]
    assert bound("/report șapte la patru").scores() == [(7, 4)]
    # A name is not a number: "Ana to Bob" stays names.
    assert bound("/result ana 3-1 bob").values["player"] == "ana"
    assert bound("/report 3-1 lot:WON").choice("lot") == "won"
    assert bound("/approve eve frank").values["player"] == ["eve", "frank"]
    assert bound('/approve player:"Eve Ray"').values["player"] == ["Eve Ray"]


def test_options_keep_their_aliases() -> None:
    assert bound("/club tz:Europe/Madrid lang:es").values == {
        "timezone": "Europe/Madrid",
        "language": "es",
    }
    assert bound("/forfeit bob why:left").text("reason") == "left"


def test_a_preset_typo_suggests_the_preset() -> None:
    refused = refusal('/tournament new name:"May Cup" preset:navodari start:"2026-05-01 20:00"')
    assert refused.code == "bad_preset_name"
    assert refused.params["suggestion"] == "navodari-table"


def test_an_unknown_option_suggests_the_closest_and_lists_the_allowed() -> None:
    refused = refusal('/tournament new name:"May Cup" thirdplace:no start:"2026-05-01 20:00"')
    assert refused.code == "unknown_option_close"
    assert refused.params["suggestion"] == "third_place:"
    assert "start:" in str(refused.params["allowed"])
    assert refusal("/draw frobnicate:1").code == "unknown_option"
    assert refusal('/register nmae:"Ana P."').params["suggestion"] == "name:"
    # Three letters in common are not a likeness: /tournament list born: was asked
    # "did you mean torneo:?" in a Spanish club.
    assert refusal("/tournament list born:1950-03-02").code == "unknown_option"


def test_preset_keys_go_to_the_overrides() -> None:
    args = bound('/tournament new name:X start:"2026-05-01 20:00" group_size:five groups.size:3')
    assert args.extra == {"group_size": "five", "groups.size": "3"}


def test_unquoted_values_and_stray_words_are_refused_with_what_to_type() -> None:
    refused = refusal('/tournament new name:Navodari Cup start:"2026-05-01 20:00"')
    assert refused.code == "unquoted_value"
    assert refused.params["example"] == 'name:"Navodari Cup"'
    assert refusal("/confirm now please").code == "unexpected_words"
    # A director checking someone in is told the command that does it.
    someone = refusal('/checkin "José Núñez"')
    assert someone.code == "checkin_for_someone"
    assert someone.params["command"] == "/present José Núñez"
    assert refusal("/tournament nwe").params["suggestion"] == "new"


def test_missing_and_bad_values_say_what_to_type() -> None:
    assert refusal("/forfeit bob").code == "reason_required"
    assert refusal("/pause").code == "match_number_required"
    assert refusal("/report").code == "score_required"
    assert refusal("/report abc").code == "bad_score"
    assert refusal('/tournament new name:X start:"2026-05-01 20:00" seed:five').code == "bad_seed"
    assert refusal("/report game gammon cube:two").code == "bad_cube"
    assert refusal("/ranking weekly").code == "bad_choice"


def test_a_hint_repeats_what_was_typed_instead_of_the_example() -> None:
    """A director copies the hint: it must name their tournament, not "May Cup"."""
    refused = refusal('/tournament cancel "Navodari Cup"')
    assert refused.code == "reason_required"
    assert refused.params["usage"] == '/tournament cancel "Navodari Cup" reason:"..."'
    assert refusal("/forfeit bob").params["usage"] == '/forfeit bob reason:"..."'
    missing = refusal('/tournament cancel reason:"snow storm"')
    assert missing.code == "which_tournament_required"
    assert missing.params["usage"].endswith('reason:"snow storm"')


def test_a_near_miss_of_a_word_is_not_read_as_a_name() -> None:
    refused = refusal("/result 5 viod")
    assert refused.code == "did_you_mean_word"
    assert refused.params["usage"] == "/result 5 void"
    assert bound("/result 5 void").values["void"] == "void"
    # After a score the last word is the opponent, however close to "void".
    assert bound("/result Vida 3-1 Voids").values["opponent"] == "Voids"
    # A short choice stays out of it: "Al" is a name, not a typo of "all".
    assert bound("/forfeit Al reason:late").values["player"] == "Al"
    seson = refusal("/ranking seson")
    assert (seson.code, seson.params["usage"]) == ("did_you_mean_word", "/ranking season")
    assert refusal("/ranking weekly").code == "bad_choice"


def test_a_name_typed_without_its_option_is_shown_with_it() -> None:
    refused = refusal('/tournament new Dec Cup start:"2026-12-05 18:00"')
    assert refused.code == "value_needs_key"
    assert refused.params["usage"] == ('/tournament new name:"Dec Cup" start:"2026-12-05 18:00"')


def test_an_unquoted_value_is_not_taken_for_a_subcommand() -> None:
    assert refusal("/club name:Navodari Club").params["example"] == 'name:"Navodari Club"'
    assert refusal("/club tz:New York").params["example"] == 'timezone:"New York"'
    assert refusal("/club lnk").code == "unknown_subcommand"


def test_a_subcommand_of_another_command_names_that_command() -> None:
    """/player claim ana: the claim code is /director claim, and so the reply says."""
    refused = refusal('/player claim "Grażyna Ślęzak"')
    assert refused.code == "subcommand_elsewhere"
    assert refused.params["suggestion"] == '/director claim "Grażyna Ślęzak"'
    assert refusal("/player clam ana").code == "unknown_subcommand"


def test_a_language_may_be_typed_by_its_name() -> None:
    assert bound("/club language:romanian").values["language"] == "ro"
    assert bound("/me language:polski").values["language"] == "pl"


def test_a_score_typed_as_two_numbers_is_the_score() -> None:
    """`/report 3 1`: a phone keyboard puts a space where the dash is hard to reach."""
    assert bound("/report 3 1").values["score"] == [(3, 1)]
    assert refusal("/report 3 1 2").code != "did_you_mean_word"  # not read as 3-1


def test_usage_comes_from_the_declaration() -> None:
    assert BY_NAME["forfeit"].usage() == '/forfeit alice reason:"..."'
    assert BY_NAME["report"].usage(full=True).startswith("/report 3-1 [match:5]")


def test_a_refusal_parameter_may_be_called_key() -> None:
    """The crash of issue 7: msg() got multiple values for argument 'key'."""
    assert msg("refused.bad_preset", key="x").params == {"key": "x"}


def test_bind_needs_no_registry() -> None:
    spec = BY_NAME["away"]
    args = bind(spec.signature, parse("/away Ana"), ("Ana",))
    assert args.values == {"player": "Ana"}


def test_subcommands_said_in_the_clubs_language_are_the_subcommands_they_mean() -> None:
    """/tournament nowy (the line /turniej nowy ... is suggested as) is /tournament new, as
    its options said in Polish are; an unknown word is still refused with the list."""
    polish = bound('/tournament nowy nazwa:"Puchar Stycznia" start:"2027-01-23 10:00"')
    assert polish.command == "tournament new"
    assert polish.values["name"] == "Puchar Stycznia"
    assert bound("/tournament listă").command == "tournament list"
    assert bound('/player renombrar "zofia" to:"Zofia"').command == "player rename"
    assert bound("/withdraw potwierdź").command == "withdraw confirm"
    assert bound("/withdraw sí").command == "withdraw confirm"
    assert bound("/player novato bob").command == "player novice"
    assert refusal("/tournament nowe").code == "unknown_subcommand"


def test_option_words_said_in_the_clubs_language_name_their_options() -> None:
    """strona:tak (the public pages), sorteo:ganado (a draughts lot) as a club types them."""
    assert bound("/club strona:tak").values["web"] == "on"
    assert bound("/club pagina:no").values["web"] == "off"
    assert bound("/report 2-2 2-2 2-2 sorteo:ganado").values["lot"] == "won"


def test_romanian_options_said_with_their_article_are_the_options_they_mean() -> None:
    """motivul:, numele: and data_nașterii: are reason:, name: and born: (a Romanian club
    says them with the article as often as without)."""
    lifted = bound('/lift radu motivul:"greșeală"')
    assert lifted.values["reason"] == "greșeală"
    registered = bound('/register numele:"George Enescu" data_nașterii:1960-01-01')
    assert registered.values["name"] == "George Enescu"
    assert registered.values["born"] is not None


def test_renaming_and_merging_take_to_and_into_in_the_clubs_words() -> None:
    """/player renombrar juan a:"Juan P." and /player unir "Rocío 2" en:"Rocío": the option
    words a Spanish, Polish or Romanian director types for to: and into:."""
    assert bound('/player renombrar juan a:"Juan P."').values["to"] == "Juan P."
    assert bound('/player rename jan na:"Jan K."').values["to"] == "Jan K."
    assert bound('/player rename ion nou:"Ion B."').values["to"] == "Ion B."
    assert bound('/player merge "Rocío 2" en:"Rocío"').values["into"] == "Rocío"
    assert bound('/player merge "Ewa 2" do:"Ewa"').values["into"] == "Ewa"
    assert bound('/player merge "Ana 2" cu:"Ana"').values["into"] == "Ana"


@pytest.mark.parametrize(
    "line",
    [
        "/report gané 3-1",
        "/report 3-1 gane",
        "/report perdí 1-3",
        "/report wygrałem 4-0",
        "/report am câștigat 3-1",  # Romanian says it in two words
        "/report I won 3-1",
    ],
)
def test_a_report_with_the_word_for_its_outcome_is_the_score_alone(line: str) -> None:
    """ "gané 3-1" was answered "I did not understand 3-1": the word was taken for a name."""
    (score,) = bound(line).values["score"]
    assert score in ((3, 1), (1, 3), (4, 0))


def test_a_report_whose_word_and_score_disagree_asks_which_is_meant() -> None:
    """ "perdí 3-1" is Spanish for "I lost 3-1", their points first: as typed it would be
    recorded as a win."""
    lost = refusal("/report perdí 3-1")
    assert (lost.code, lost.params["example"]) == ("report_said_lost", "/report 1-3")
    won = refusal("/report won 1-3 2-1")
    assert (won.code, won.params["example"]) == ("report_said_won", "/report 3-1 1-2")


def test_a_hint_echoing_a_contradicted_report_is_shown_not_refused() -> None:
    """A suggestion can echo the player's words ("/report perdí 3-1"): drawing its slash
    form must not raise the refusal meant for the command."""
    from commands.binding import given_values

    parsed = parse("/report perdí 3-1")
    spec, words = select(BY_NAME[parsed.name], parsed)
    assert "..." in given_values(spec.signature, parsed, words)
    parsed = parse("/report gané 3-1")
    spec, words = select(BY_NAME[parsed.name], parsed)
    assert given_values(spec.signature, parsed, words) == {"score": ["3-1"]}


def test_ranking_tables_and_games_said_in_the_clubs_language() -> None:
    """/ranking temporada was refused: "temporada is not one of the options"."""
    for typed, meant in (
        ("temporada", "season"),
        ("histórico", "alltime"),
        ("historico", "alltime"),
        ("nowicjusze", "novice"),
        ("începători", "novice"),
        ("novato", "novice"),
    ):
        assert bound(f"/ranking {typed}").values["which"] == meant, typed
    assert bound("/ranking game:damas").values["game"] == "draughts"
    assert bound("/ranking game:warcaby").values["game"] == "draughts"
    assert bound("/ranking game:table").values["game"] == "backgammon"


def test_a_backgammon_game_said_in_the_clubs_language_HGV_5_2() -> None:
    """/report partida gammon and /report game doble were "I did not understand"."""
    for line, kind in (
        ("/report partida gammon", "gammon"),
        ("/report juego doble", "gammon"),
        ("/report gra podwójna", "gammon"),
        ("/report joc dublu", "gammon"),
        ("/report partida sencilla", "single"),
        ("/report game triplu", "backgammon"),
    ):
        args = bound(line)
        assert (args.command, args.values["kind"]) == ("report game", kind), line
    # "partida" is a match too: a score after it is the match's, not one game's.
    for line in ("/report partida 3-1", "/report mecz 3-1", "/report meci 3-1"):
        args = bound(line)
        assert (args.command, args.values["score"]) == ("report", [(3, 1)]), line


def test_a_match_named_after_the_score_is_the_match_option() -> None:
    """/report 3-1 match 5 (or partida 5, mecz nr 5, #5) answered "I did not understand
    match 5"; the number is the match: option, as /report 3-1 match:5."""
    for line in (
        "/report 3-1 match 5",
        "/report 3-1 partida 5",
        "/report 3-1 mecz nr 5",
        "/report 3-1 #5",
        "/report 3-1 meci 5",
    ):
        args = bound(line)
        assert args.values["match"] == 5, line
        assert args.values["score"] == [(3, 1)], line
    assert bound("/report 3 1").values["score"] == [(3, 1)]
    assert refusal("/report 3-1 match").code == "unexpected_words"
