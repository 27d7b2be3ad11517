"""Match scores: game values, final-score checks and game-by-game play with Crawford.

Backgammon (HGV-5.2, HGV-5.3, NAV-GAMES, HGV-7.3.2) and draughts (WAR-V, WAR-GAME).
A refused score raises `ScoreError(code, **params)`; the message catalog renders it.

Error codes (params in brackets):
- "bad_length" [length]: the match length is below 1 (a preset or caller bug).
- "negative" [white, black]: a score (main or tiebreak phase) is below zero.
- "below_floor" [white, black]: the score is below the lateness points already on the
  board (the params are those floor points).
- "nobody_reached_length" [length]: backgammon, neither player reached the length.
- "both_reached_length" [length]: backgammon, both players reached the length.
- "score_out_of_reach" [length, most]: backgammon, no single last game can carry the
  winner from below the length to this score; `most` is the highest score one can.
- "match_already_over" [white, black]: a game added after the match ended, or a final
  score other than the lateness score of a match already lost by lateness.
- "game_kind_not_counted" [kind]: the preset gives this kind of win 0 points
  (NAV-GAMES: no backgammon "triple" at Navodari).
- "cube_not_power_of_two" [cube, most]: the cube shows 1, 2, 4, ... up to `most` (64).
- "cube_not_used" [cube]: the preset plays without the doubling cube.
- "cube_in_crawford_game" [cube]: HGV-7.3.2, the Crawford game is played without cube.
- "cube_pointless" [cube]: HGV-7.3.2, both players are at length - 1.
- "draughts_total_wrong" [total, phase]: the two scores of a draughts match (phase 0)
  must add up to `total` (2 points a game, WAR-GAME).
- "draughts_tiebreak_total_wrong" [total, phase]: so must those of tiebreak `phase`
  (1-based).
- "drawn_match_needs_tiebreak" [phase, game]: the match (or the last tiebreak phase) is
  level; tiebreak `phase` (1-based), of kind `game` ("2x5", ...), must be played next.
- "tiebreak_not_needed" []: tiebreak phases given for a decided match (or backgammon).
- "tiebreak_already_decided" [phase]: phase `phase` was decisive, yet more followed.
- "too_many_tiebreaks" [allowed]: more phases than the preset allows for this stage.
- "lot_needed" []: every allowed phase was level; name the side that won the lot.
- "lot_not_allowed" []: a lot is given, but the match was decided on the board.
- "no_winner" []: `FinalScore.winner_side` of a level score with no tiebreak or lot.
- "unknown_outcome" [outcome]: a draughts game outcome other than win, draw, loss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from tournament.frozen import frozen
from tournament.model import Refused
from tournament.preset import Game, ScoringRules

Side = Literal["white", "black"]
GameKind = Literal["single", "gammon", "backgammon"]
Outcome = Literal["win", "draw", "loss"]

# The physical doubling cube stops at 64; no tournament game goes higher.
MAX_CUBE = 64
CUBE_VALUES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)

# WAR-GAME: a draughts game gives 2 points between the two players.
_DRAUGHTS_POINTS: dict[str, int] = {"win": 2, "draw": 1, "loss": 0}


# The code of a level match (or tiebreak phase) that needs one more phase.
TIEBREAK_NEEDED = "drawn_match_needs_tiebreak"
# The codes whose remedy is the same score again with tiebreak `phase` (1-based) as it
# could be: the scores typed before that phase kept, that one (re)done.
TIEBREAK_CODES = (TIEBREAK_NEEDED, "draughts_tiebreak_total_wrong")


class ScoreError(ValueError):
    """A score that cannot stand; `code` is stable, `params` fill the message."""

    def __init__(self, code: str, **params: int | str) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params: dict[str, int | str] = params


@frozen
class FinalScore:
    """A match's final score, white first; draughts may add tiebreak phases and a lot."""

    white: int
    black: int
    tiebreaks: tuple[tuple[int, int], ...] = ()
    lot_winner: Side | None = None

    @property
    def winner_side(self) -> Side:
        """Return the side ahead in the deciding phase: main, last tiebreak, else lot."""
        white, black = self.white, self.black
        if white != black:  # the main phase decides: every result of a backgammon night
            return "white" if white > black else "black"
        for white, black in self.tiebreaks[-1:]:
            if white != black:
                return "white" if white > black else "black"
        if self.lot_winner is not None:
            return self.lot_winner
        raise ScoreError("no_winner")


def from_reporter(mine: int, theirs: int, reporter_is_white: bool) -> tuple[int, int]:
    """Return a reporter's "my score first" pair as (white, black)."""
    return (mine, theirs) if reporter_is_white else (theirs, mine)


def named_first(
    first: int,
    second: int,
    *,
    first_is_white: bool,
    phases: Sequence[tuple[int, int]] = (),
    lot: Side | Literal["first", "second"] | None = None,
) -> FinalScore:
    """Return a score given with a named player's points first as white first.

    The one place the white/black flip is written: a player reports their own score
    first, a director names a player first (`/result alice 3-1 bob`). Tiebreak phases
    (WAR-V) flip with the main score; `lot` names the lot's winner as a colour or as
    the first or second named player.
    """

    def flip(pair: tuple[int, int]) -> tuple[int, int]:
        return pair if first_is_white else (pair[1], pair[0])

    white, black = flip((first, second))
    winner: Side | None = None
    if lot == "first" or lot == "second":
        winner = "white" if (lot == "first") == first_is_white else "black"
    elif lot is not None:
        winner = lot
    return FinalScore(white, black, tuple(flip(ph) for ph in phases), winner)


LOT_WORDS: dict[str, Side | Literal["first", "second"]] = {
    "white": "white",
    "black": "black",
    "first": "first",
    "won": "first",
    "second": "second",
    "lost": "second",
}
"""Words naming who won a lot (WAR-V): a colour, or the first/second named player."""


def lot_word(text: str | None) -> Side | Literal["first", "second"] | None:
    """Read who won a lot: `white`/`black`, `first`/`won`, `second`/`lost`; refuse others."""
    if text is None or not text.strip():
        return None
    found = LOT_WORDS.get(text.strip().lower())
    if found is None:
        raise Refused("bad_lot", text=text.strip())
    return found


def winning_score(game: Game, length: int) -> int:
    """Return the least score that wins a match outright: what a forfeit gives."""
    # Draughts: every game of the match won, 2 points each (WAR-GAME).
    return 2 * length if game == "draughts" else length


def example_score(game: Game, length: int) -> tuple[int, int]:
    """Return a score that ends a match of `length`, the winner's first: for hints."""
    won = winning_score(game, length)
    if game == "draughts":
        # A match's points add up to 2 a game (WAR-GAME): 3-1 for two games.
        return (won - 1, 1) if won > 2 else (won, 0)
    return won, max(won - 2, 0)


def draughts_points_of_games(first: int, second: int, games: int) -> tuple[int, int] | None:
    """Return a draughts score typed as games won (2-0: both games; 1-0: a win and a
    draw) in points, 2 a win and 1 a draw (WAR-GAME); None when it cannot be one."""
    if first < 0 or second < 0 or not 0 < first + second <= games:
        return None
    drawn = games - first - second
    return 2 * first + drawn, 2 * second + drawn


def draughts_game_points(outcome: Outcome) -> int:
    """Return a player's points for one draughts game: win 2, draw 1, loss 0 (WAR-GAME)."""
    points = _DRAUGHTS_POINTS.get(outcome)
    if points is None:
        raise ScoreError("unknown_outcome", outcome=str(outcome))
    return points


def game_value(rules: ScoringRules, kind: GameKind, cube: int) -> int:
    """Return the points a backgammon game is worth: kind value times cube (HGV-5.2)."""
    if cube not in CUBE_VALUES:
        raise ScoreError("cube_not_power_of_two", cube=cube, most=MAX_CUBE)
    if cube > 1 and not rules.cube:
        raise ScoreError("cube_not_used", cube=cube)
    value = _kind_values(rules).get(kind, 0)
    if value <= 0:
        raise ScoreError("game_kind_not_counted", kind=str(kind))
    return value * cube


def max_game_value(rules: ScoringRules) -> int:
    """Return the most points one backgammon game can be worth under these rules."""
    return max(_kind_values(rules).values()) * (MAX_CUBE if rules.cube else 1)


def _kind_values(rules: ScoringRules) -> dict[str, int]:
    return {"single": rules.single, "gammon": rules.gammon, "backgammon": rules.backgammon}


def _last_game_values(rules: ScoringRules) -> frozenset[int]:
    cubes = CUBE_VALUES if rules.cube else (1,)
    kinds = [value for value in _kind_values(rules).values() if value > 0]
    return frozenset(kind * cube for kind in kinds for cube in cubes)


def check_final_score(
    rules: ScoringRules,
    game: Game,
    length: int,
    score: FinalScore,
    *,
    knockout: bool = False,
    floor: tuple[int, int] = (0, 0),
) -> FinalScore:
    """Return `score` if it can end a match of `length`, else raise ScoreError."""
    if length < 1:
        raise ScoreError("bad_length", length=length)
    _check_not_negative(score.white, score.black)
    if score.white < floor[0] or score.black < floor[1]:
        raise ScoreError("below_floor", white=floor[0], black=floor[1])
    if game == "draughts":
        _check_draughts(rules, length, score, knockout=knockout)
    else:
        _check_backgammon(rules, length, score, floor)
    return score


def _check_not_negative(white: int, black: int) -> None:
    if white < 0 or black < 0:
        raise ScoreError("negative", white=white, black=black)


def _check_backgammon(
    rules: ScoringRules, length: int, score: FinalScore, floor: tuple[int, int]
) -> None:
    if score.tiebreaks:
        raise ScoreError("tiebreak_not_needed")
    if score.lot_winner is not None:
        raise ScoreError("lot_not_allowed")
    if score.white >= length and score.black >= length:
        raise ScoreError("both_reached_length", length=length)
    if score.white < length and score.black < length:
        raise ScoreError("nobody_reached_length", length=length)
    if max(floor) >= length:
        # HGV-2.3.1: lateness reached the length, so the match ended by forfeit unplayed.
        if (score.white, score.black) != floor:
            raise ScoreError("match_already_over", white=floor[0], black=floor[1])
        return
    winner, winner_floor = (
        (score.white, floor[0]) if score.white >= length else (score.black, floor[1])
    )
    # HGV-5.3: before the last game the winner stood between their floor and length - 1.
    # The Crawford rule is not replayed here: add_game enforces it game by game.
    if not any(winner_floor <= winner - value <= length - 1 for value in _last_game_values(rules)):
        most = length - 1 + max(_last_game_values(rules), default=0)
        raise ScoreError("score_out_of_reach", length=length, most=most)


def _check_draughts(
    rules: ScoringRules, length: int, score: FinalScore, *, knockout: bool
) -> None:
    _check_draughts_phase(score.white, score.black, length, phase=0)
    decided = score.white != score.black
    if decided and score.tiebreaks:
        raise ScoreError("tiebreak_not_needed")
    allowed = rules.knockout_tiebreak_games if knockout else rules.group_tiebreak_games
    if len(score.tiebreaks) > len(allowed):
        raise ScoreError("too_many_tiebreaks", allowed=len(allowed))
    for number, ((white, black), kind) in enumerate(
        zip(score.tiebreaks, allowed, strict=False), start=1
    ):
        if decided:
            raise ScoreError("tiebreak_already_decided", phase=number - 1)
        _check_draughts_phase(white, black, _phase_games(kind), phase=number)
        decided = white != black
    if decided:
        if score.lot_winner is not None:
            raise ScoreError("lot_not_allowed")
        return
    played = len(score.tiebreaks)
    if played < len(allowed):
        raise ScoreError(TIEBREAK_NEEDED, phase=played + 1, game=allowed[played])
    if score.lot_winner not in ("white", "black"):
        raise ScoreError("lot_needed")


def _check_draughts_phase(white: int, black: int, games: int, *, phase: int) -> None:
    _check_not_negative(white, black)
    if white + black != 2 * games:
        code = "draughts_tiebreak_total_wrong" if phase else "draughts_total_wrong"
        raise ScoreError(code, total=2 * games, phase=phase)


def _phase_games(kind: str) -> int:
    # "2x5" is two games of 5 minutes each: the count comes before the "x".
    return int(kind.partition("x")[0])


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One backgammon game as reported: who won, how, and the cube's final value."""

    winner: Side
    kind: GameKind
    cube: int = 1


@dataclass(frozen=True, slots=True)
class GameByGame:
    """A backgammon match scored game by game; build it up with `add_game`.

    `points` holds each game's value under the match's scoring rules, parallel to
    `games`: add_game fills it, since a game's kind alone does not say its points.
    """

    length: int
    games: tuple[GameRecord, ...] = ()
    floor: tuple[int, int] = (0, 0)
    points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.points) != len(self.games):
            raise ValueError("GameByGame.points must hold one value per game")

    def _scores(self) -> list[tuple[int, int]]:
        white, black = self.floor
        scores = [(white, black)]
        for game, value in zip(self.games, self.points, strict=True):
            if game.winner == "white":
                white += value
            else:
                black += value
            scores.append((white, black))
        return scores

    @property
    def score(self) -> tuple[int, int]:
        """Return the current (white, black) score, lateness points included."""
        return self._scores()[-1]

    @property
    def is_over(self) -> bool:
        """Return whether a player has reached the match length."""
        return max(self.score) >= self.length

    def crawford_game_next(self) -> bool:
        """Return whether the next game is the Crawford game (HGV-7.3.2).

        It is when a player stands at length - 1, the other below, and no earlier score
        of the match (lateness points included) had anyone at length - 1.
        """
        *earlier, current = self._scores()
        away = self.length - 1
        if self.is_over or sorted(current)[1] != away or min(current) == away:
            return False
        return all(away not in scores for scores in earlier)

    def cube_pointless(self) -> bool:
        """Return whether both players stand at length - 1 (HGV-7.3.2)."""
        return self.score == (self.length - 1, self.length - 1)


def add_game(rules: ScoringRules, match: GameByGame, game: GameRecord) -> GameByGame:
    """Return the match with one more backgammon game, or raise ScoreError."""
    if match.length < 1:
        raise ScoreError("bad_length", length=match.length)
    if match.is_over:
        white, black = match.score
        raise ScoreError("match_already_over", white=white, black=black)
    value = game_value(rules, game.kind, game.cube)
    if game.cube > 1 and rules.crawford:
        # The preset's crawford switch covers all of HGV-7.3.2, the level case too.
        if match.crawford_game_next():
            raise ScoreError("cube_in_crawford_game", cube=game.cube)
        if match.cube_pointless():
            raise ScoreError("cube_pointless", cube=game.cube)
    return replace(match, games=(*match.games, game), points=(*match.points, value))
