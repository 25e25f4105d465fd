"""`meldcalc game`: a game followed hand by hand at the table (`meldcalc.game.session`)."""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from meldcalc import console
from meldcalc.cli.base import (
    DEFAULT_POLICY,
    MAX_BID,
    Policy,
    SeedOption,
    app,
    fail,
    file_name,
    format_option,
    jobs_option,
    load,
    policy_option,
    say,
    user_errors,
    warn,
)
from meldcalc.errors import MeldcalcError, quote, shown_path


class GameFormat(str, enum.Enum):
    text = "text"
    jsonl = "jsonl"


#: What ends the session at its prompt, besides the end of input (Ctrl-D); the hand under
#: way stays in its journal.
QUIT = ("quit", "exit", "q")


@app.command(short_help="Follow a game at the table: bids, meld, cards, hints, the score.")
def game(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", parser=file_name, help="The game's ledger (JSON lines)."),
    ],
    variant: Annotated[
        Optional[str],
        typer.Option("--variant", "-V", metavar="NAME|FILE", help="A new game's variant."),
    ] = None,
    target: Annotated[
        Optional[int],
        typer.Option("--to", min=1, max=MAX_BID, metavar="POINTS", help="A new game's target."),
    ] = None,
    names: Annotated[
        Optional[str],
        typer.Option("--names", metavar="NAMES", help="A new game's side names, as score takes."),
    ] = None,
    seat: Annotated[
        Optional[str],
        typer.Option("--seat", metavar="SEAT", help="Your seat, from 0 (the dealer's left first)."),
    ] = None,
    seed: SeedOption = None,
    echo: Annotated[
        bool,
        typer.Option(
            "--echo", help="Show each step read, '> STEP', before its answer (a transcript)."
        ),
    ] = False,
    fmt: Annotated[GameFormat, format_option(GameFormat)] = GameFormat.text,
    jobs: Annotated[
        int, jobs_option("Processes for 'review': your cards priced on that many cores at once.")
    ] = 1,
    policy: Annotated[Policy, policy_option("your odds' and hints' deals")] = DEFAULT_POLICY,
) -> None:
    """Follow a game hand by hand: your cards, the auction, trump, the meld laid down, the
    cards as they fall, and the score, appended to FILE as `meldcalc score -g` keeps it.

    Steps are read one a line (typed at the prompt, or piped in): seat N, hand CARDS, a bid
    or pass, trump S, meld SEAT TOTAL|CARDS, a card, hint, show, tricks N, undo, help, quit.
    Each step is kept in FILE.hand before it is answered: run the command again to resume.
    Two-handed (-V two-handed): hand CARDS, turn-up CARD, a card, meld CARDS, dix, draw
    CARD, close, hint, show ('help' lists them).

    Example: meldcalc game friday.jsonl --seat 0
    """
    from meldcalc.game import lock

    with ExitStack() as stack:
        with user_errors():
            if sys.stdin is None:  # before any journal is made for a hand none can follow
                raise MeldcalcError("standard input is closed: expected steps, one per line")
            if file.is_symlink():  # refused before it is read, and before a hand is typed
                raise MeldcalcError(f"{shown_path(file)}: a symbolic link: give the ledger itself")
            # one writer a game: held until the session ends, and refused while another runs
            stack.enter_context(lock.holding(file, "meldcalc game"))
        _session(file, variant, target, names, seat, seed, echo, fmt, jobs, policy)


def _session(
    file: Path,
    variant: str | None,
    target: int | None,
    names: str | None,
    seat: str | None,
    seed: int | None,
    echo: bool,
    fmt: GameFormat,
    jobs: int,
    policy: Policy,
) -> None:
    """The session on a game held (`game.lock`): the hand under way resumed, then each step
    read, taken, journaled and answered; a hand over is scored into the ledger."""
    from meldcalc.game import journal, ledger
    from meldcalc.game.words import SESSION_WORDS

    with user_errors():
        book = ledger.read(file)
        if book is not None:
            warn(list(book.notes))  # the house file changed since the game began
        hands_done = book.deals if book else 0  # the deals every seat passed too
        jpath = journal.journal_path(file)
        _drop_if_scored(jpath, file, hands_done + 1)  # the hand that won it among them
        if book is not None:  # refused now, not once a whole deal has been typed
            ledger.check_open(book, target)
        if book is None and not journal.read_steps(jpath)[0]:
            journal.clear(jpath)  # begun with no step typed: nothing binds the settings yet
        if book is None:  # a new game: its first hand's journal says under which rules
            variant = _journal_variant(jpath, variant)
        rules, spec = _rules(book, variant)
        session = session_of(rules)  # the seam: two-handed has a session of its own
        start, apply, replay = session.start, session.apply, session.replay
        named = None
        if names is not None:
            from meldcalc.cli.scoring import _side_names

            named = _side_names(names, rules)
        if book is None:  # a new game's hand under way keeps what the game began with
            named, target = _kept_settings(jpath, named, target)
        game_names = (book.names if book else None) or named or ()
        dealer = _dealer(hands_done + 1, rules.players)
        first = start(rules, dealer, game_names, _score_of(book, rules), policy.value)
        steps, warnings = journal.read_steps(jpath)
        warn(warnings)
        table = _resumed(first, steps, jpath, apply)
        seated = seat is not None and not steps  # the seat is the hand's first step
        if seated:  # checked before anything is kept
            table = apply(table, f"seat {seat}", advise=False).table
        elif seat is not None and table.seat(seat) != table.me:
            raise MeldcalcError(
                f"--seat {seat}: the hand under way in {shown_path(jpath)} is seat"
                f" {table.me}'s: leave out --seat to go on with it"
            )
        head = {"deal": hands_done + 1}  # the journal's first line: which deal it is
        if book is None and journal.variant_of(jpath) is None:
            began = head | {"variant": spec}
            began |= {"names": list(named)} if named else {}
            began |= {"to": target} if target is not None else {}
            journal.append(jpath, began)
        if seated:
            journal.append(jpath, {"step": f"seat {seat}"}, head)
            steps.append(f"seat {seat}")
    out = _Output(fmt, echo)
    last = _last_hand(session, file, rules, hands_done, game_names, policy.value)  # for 'review'
    if len(steps) > 1 or (steps and seat is None):
        kept = f"{len(steps)} step{'' if len(steps) == 1 else 's'}"
        out.note(f"resuming {_hand_called(book)}: {kept} kept in {shown_path(jpath)}")

    def finish() -> bool:
        """The hand over: recorded in the ledger, its journal kept as the last hand's, the
        next dealt; False when that was the game's last."""
        nonlocal hands_done, book, first, steps, table, head, last
        last = table
        with user_errors():
            hands_done += 1
            book = _record(file, table, rules, spec, target, named)
            journal.keep_last(jpath)  # before a word is said: a run cut short scores it once
        _tell_recorded(out, book, rules, passed=table.outcome() is None)
        if book.standing().winner is not None:  # no next deal: it could not be kept
            out.note("the game is over: play the next one in a new file")
            return False
        first = start(
            rules,
            _dealer(hands_done + 1, rules.players),
            game_names,
            _score_of(ledger.read(file), rules),
            policy.value,
        )
        steps = [f"seat {table.me}"]  # the same seat next hand
        table = apply(first, steps[0], advise=False).table
        head = {"deal": hands_done + 1}
        with user_errors():
            journal.append(jpath, {"step": steps[0]}, head)
        out.note(_dealt(_hand_called(book), table))
        return True

    if table.phase == "over":  # finished before a crash: recorded now, not at the next step
        out.note(f"{_hand_called(book)} was over: recording it")
        if not finish():
            return
    else:
        out.note(_dealt(_hand_called(book), table))
    quitted = over = False
    with _told_on_ctrl_c(lambda: out.kept(file, jpath, steps, "\n")):
        for number, line in _steps_typed(lambda: _prompt(table), rules):  # noqa: B023
            if isinstance(line, MeldcalcError):
                out.error(number, str(line))
                continue
            typed = line.rstrip()  # blanks before kept: a problem is told at its column
            text = typed.lstrip()
            if not text or text.startswith("#"):
                continue
            out.echo(text)
            if text.lower() in QUIT:
                quitted = True
                break
            word, *more = text.split(maxsplit=1)
            if more and word.lower() in (*QUIT, *SESSION_WORDS):  # else read as cards
                out.error(number, f"{quote(text)}: {word.lower()} takes nothing after it")
                continue
            kept = None  # the step's answer, once its journal has it
            try:
                if text.lower() == "review":
                    lines, data = _reviewed(last, seed or 0, jobs, session)
                    out.answer(number, text, lines, data)
                    continue
                if text.lower() == "undo":
                    if not steps:
                        raise MeldcalcError("undo: nothing to take back in this hand")
                    journal.append(jpath, {"undo": len(steps)}, head)
                    undone = steps.pop()
                    table = replay(first, steps)
                    out.answer(number, text, [f"took back: {undone}"], {"undone": undone})
                    continue
                taken = apply(table, typed, advise=False)  # checked, no advice worked out yet
                if taken.table is not table:  # a step taken (a question, as hint, is not)
                    journal.append(jpath, {"step": text}, head)  # on disk before answered
                    steps.append(text)
                    kept = taken
                answer = _advised(apply, table, typed, seed or 0, kept)
            except MeldcalcError as error:
                out.error(number, str(error))
                if kept is None:
                    continue
                answer = kept  # in the journal, though its advice could not be given
            if answer is None:  # a question cancelled (Ctrl-C): said, not an error
                out.note("cancelled (Ctrl-C): the session goes on")
                continue
            table = answer.table
            out.answer(number, text, answer.lines, answer.data)
            if table.phase == "over" and not finish():
                over = True  # the game won: no hand is left to go on with
                break
    if not over and (quitted or _terminal()):  # quit, or Ctrl-D (a pipe's end says nothing)
        out.kept(file, jpath, steps)
    if out.refused and not _terminal():
        raise typer.Exit(2)  # a script is told that some of its steps were refused


def session_of(rules: Any) -> Any:
    """The module that follows a hand of ``rules`` (start, apply, replay, review_mine):
    `meldcalc.game.twohanded` where a turn-up names trump, else `meldcalc.game.session`."""
    if rules.turns_up_trump:
        from meldcalc.game import twohanded

        return twohanded
    from meldcalc.game import session

    return session


def _advised(apply: Any, table: Any, typed: str, seed: int, kept: Any) -> Any:
    """The step's answer with its advice (a bid's odds, a hint, a review) worked out; Ctrl-C
    while it is worked out cancels the advice, not the session: the step's plain answer
    (``kept``, it is in the journal), or None for a question."""
    try:
        with _interruptible():
            return apply(table, typed, advise=True, seed=seed)
    except KeyboardInterrupt:
        return kept


@contextmanager
def _interruptible(on: bool = True) -> Iterator[None]:
    """Ctrl-C in the block raises KeyboardInterrupt (the work is this process's alone, so
    it unwinds safely), for the block to be cancelled, not the run ended at once
    (`console.end_on_signals`)."""
    if not on:
        yield
        return
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _told_on_ctrl_c(tell: Callable[[], None]) -> Iterator[None]:
    """Ctrl-C at the prompt still ends the run at once (the terminal restored), but says
    first where the hand is kept (``tell``)."""
    import signal

    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        with suppress(Exception):  # the word is a courtesy: the run ends whatever
            tell()
        previous(signum, frame)

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _last_hand(session: Any, file: Path, rules: Any, deals: int, names: Any, policy: str) -> Any:
    """The last hand scored, as its kept journal (`journal.keep_last`) replays it, for
    'review' after a restart; None where there is none, or not of the last deal."""
    from meldcalc.game import journal

    start, replay = session.start, session.replay
    path = journal.last_path(journal.journal_path(file))
    if not deals or journal.deal_of(path) != deals:
        return None
    try:
        steps, _ = journal.read_steps(path)
        table = replay(start(rules, _dealer(deals, rules.players), names, None, policy), steps)
    except MeldcalcError:
        return None
    return table if table.phase == "over" else None


def _reviewed(last: Any, seed: int, jobs: int, session: Any) -> tuple[list[str], dict]:
    """The review of your play in the last hand played out: each of your cards against the
    best you had, as you saw it and with every hand known; the largest losses marked.
    Under `meldcalc review`'s time limit, with its progress line on a terminal; Ctrl-C
    cancels it, not the session."""
    from meldcalc.advice.review import REVIEW_TIME_LIMIT
    from meldcalc.cli.base import progress_line
    from meldcalc.cli.review import seen_review

    if last is None:
        raise MeldcalcError("review: no hand has been played out to its end in this game yet")
    try:
        with _interruptible(jobs == 1), progress_line("reviewing: {} parts priced", 0) as shown:
            priced = session.review_mine(last, seed, jobs, REVIEW_TIME_LIMIT, shown)
    except KeyboardInterrupt:
        raise MeldcalcError("review: cancelled (Ctrl-C); the session goes on") from None
    return seen_review(priced)


def _resumed(first: Any, steps: list[str], path: Path, apply: Callable[..., Any]) -> Any:
    """The hand under way, its journal's steps taken again; a step the hand refuses now (an
    edited journal) is said with its place."""
    table = first
    for number, step in enumerate(steps, start=1):
        try:
            table = apply(table, step, advise=False).table
        except MeldcalcError as error:
            raise MeldcalcError(
                f"{shown_path(path)}: step {number} {quote(step)}: {error}; was the file edited?"
                " (remove it to start the hand afresh)"
            ) from None
    return table


def _score_of(book: Any, rules: Any) -> tuple[tuple[int, ...], int] | None:
    """The game's score and target before the next hand, for a bid judged by the game:
    once the game has a hand scored (at 0-0 the plain odds say it), in a game the equity
    table is worked out for (two sides, or three each for himself)."""
    from meldcalc.advice.tablehands import TABLED, sides_of

    if book is None or not book.hands or sides_of(rules) not in TABLED:
        return None
    return tuple(book.standing().totals), book.target


def _dealt(hand: str, table: Any) -> str:
    who = table.seat_label(table.dealer)
    return f"{hand}: {who} deal{'' if who == 'you' else 's'}"


def _hand_called(book: Any) -> str:
    """The next hand as the ledger will number it (the hands scored, plus one), and its deal
    where deals every seat passed make the two differ (the deal goes round by deals)."""
    scored, deals = (len(book.hands), book.deals) if book is not None else (0, 0)
    return f"hand {scored + 1}" + (f" (deal {deals + 1})" if deals != scored else "")


def _dealer(hand: int, players: int) -> int:
    """Who deals hand ``hand`` (from 1): the last seat first, so seat 0 bids first."""
    return (hand - 2) % players


def _kept_settings(
    path: Path, names: tuple[str, ...] | None, target: int | None
) -> tuple[tuple[str, ...] | None, int | None]:
    """A new game's names and target: as its first hand's journal kept them; --names and
    --to may only repeat them."""
    from meldcalc.game import journal

    kept = journal.settings_of(path)
    if not kept:
        return names, target
    said_names = tuple(kept["names"]) if "names" in kept else None
    said_target = kept.get("to")
    if names is not None and tuple(names) != said_names:
        shown = ", ".join(said_names) if said_names else "no names"
        raise MeldcalcError(
            f"{shown_path(path)}: the hand under way began with {shown}: leave out --names"
        )
    if target is not None and target != said_target:
        began = f"a game to {said_target}" if said_target else "the variant's own target"
        raise MeldcalcError(
            f"{shown_path(path)}: the hand under way began with {began}: leave out --to"
        )
    return said_names, said_target


def _journal_variant(path: Path, variant: str | None) -> str | None:
    """The variant of a new game's hand under way: its journal's; -V may only repeat it."""
    from meldcalc.cli.scoring import _ledger_spec
    from meldcalc.game import journal

    kept = journal.variant_of(path)
    if kept is None:
        return variant
    if variant is not None and _ledger_spec(variant) != kept:
        raise MeldcalcError(
            f"{shown_path(path)}: the hand under way is played under {quote(kept)}: leave out -V"
        )
    return kept


def _rules(book: Any, variant: str | None) -> tuple[Any, str]:
    from meldcalc.cli.scoring import _game_variant

    spec = _game_variant(book, variant)
    return (book.rules if book else load(spec)), spec


def _record(file: Path, table: Any, rules: Any, spec: str, target: Any, named: Any) -> Any:
    """The hand scored and added to the game's ledger; a deal every seat passed is kept as
    passed. The game as the ledger now has it."""
    from meldcalc.game import ledger

    scored = table.outcome()
    with ledger.held(file, write=True, create=True) as held:
        if scored is None:  # kept all the same: the deal goes round
            return held.add_passed(rules, spec, target, named)
        trump = table.trump and table.trump.letter
        return held.add_hand(rules, spec, target, scored, trump, named)


def _tell_recorded(out: Any, book: Any, rules: Any, passed: bool) -> None:
    """What the ledger now holds: a deal passed, or the game's standing after the hand."""
    from meldcalc.cli.scoring import standing_table

    if passed:
        out.note("no hand to score: every seat passed")
    else:
        out.standing(standing_table(book, book.standing(), rules), book)


def _drop_if_scored(path: Path, game: Path, deal: int) -> None:
    """Drops the journal of a deal the ledger ``game`` already holds (the next is ``deal``):
    a run cut short after the hand was scored, before its journal was removed. It is never
    taken for the next deal's, to be scored again. One of a deal beyond the next is refused
    (a hand taken back since?)."""
    from meldcalc.game import journal

    kept = journal.deal_of(path)
    if kept is None or kept == deal:  # the next deal's, or begun before the deal was kept
        return
    if kept > deal:
        raise MeldcalcError(
            f"{shown_path(path)}: the hand under way is deal {kept}, but the next in"
            f" {shown_path(game)} is deal {deal} (a hand taken back since it began?): remove"
            f" {shown_path(path)} to start the hand afresh"
        )
    if kept == deal - 1:  # the last hand scored, its journal left by a run cut short
        journal.keep_last(path)
        where = f"kept as the last hand's ({shown_path(journal.last_path(path))})"
    else:
        where = f"set aside as {shown_path(journal.set_aside(path))}"
    warn(
        [
            f"{shown_path(path)}: deal {kept} is in {shown_path(game)} already: its journal"
            f" is {where}"
        ]
    )


def _terminal() -> bool:
    """Whether the steps are typed at a terminal (not piped in; stdin not closed)."""
    return sys.stdin is not None and sys.stdin.isatty()


def _steps_typed(
    prompt: Callable[[], str], rules: Any
) -> Iterator[tuple[int, str | MeldcalcError]]:
    """The steps as the player types them: at a prompt saying whose turn it is, with line
    editing, history and completion (readline) on a terminal; one a line from a pipe."""
    if not _terminal():
        yield from console.read_lines(console.stdin_bytes("steps, one per line"))
        return
    _complete_with_readline(rules)
    number = 0
    while True:
        number += 1
        try:
            yield number, input(prompt())
        except EOFError:
            say()
            return


def _prompt(table: Any) -> str:
    """The hand's phase and whose turn it is: ``[auction: you to bid] > ``."""
    if isinstance(getattr(table, "prompt", None), str):  # a two-handed table says its own
        return table.prompt
    phase = table.phase
    if phase == "auction":
        return f"[auction: {table.seat_label(table.to_bid)} to bid] > "
    if phase == "trump":
        who = table.seat_label(table.bidder)
        return f"[trump: {who} name{'' if who == 'you' else 's'} it] > "
    if phase in ("meld", "play"):
        return f"[{phase}: {table.seat_label(table.to_play)} to play] > "
    waits = {"widow": "take it", "bury": f"{table.variant.widow} cards", "ask": "a suit"}
    if phase in waits:
        return f"[{phase}: {waits[phase]}] > "
    if phase == "pass":
        wanted = "give" if (table.me == table.bidder) == (table.got is not None) else "get"
        return f"[pass: {wanted} CARDS] > "
    return f"[{phase}] > "


def _complete_with_readline(rules: Any) -> None:
    """Tab completes the words the line may take next (`completions`); the standard
    library's readline is enough for a prompt of short words (prompt_toolkit would add a
    dependency for little more)."""
    try:
        import readline
    except ImportError:  # a Python built without it: plain input
        return
    steps = _steps_of(rules)

    def complete(text: str, state: int) -> str | None:
        """The ``state``-th word ``text`` begins, and a space (Python's readline appends
        none: without it a step's word runs into what is typed next)."""
        before = readline.get_line_buffer()[: readline.get_begidx()]
        found = completions(before, text, steps)
        return f"{found[state]} " if state < len(found) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


def _steps_of(rules: Any) -> list[str]:
    """The steps a hand of these rules has: no widow or passing steps where there are none."""
    if rules.turns_up_trump:
        from meldcalc.game.twohanded import STEP_WORDS as TWO_HANDED

        return list(TWO_HANDED)
    from meldcalc.game.session import STEP_WORDS

    unused = set()
    if not rules.widow:
        unused |= {"widow", "bury"}
    if rules.bidding is None or not rules.bidding.concede:
        unused |= {"throw", "concede"}
    if rules.bidding is None or not rules.bidding.marriage_in_trump:
        unused.add("no")
    if not any(rule.checks for rule in rules.melds):
        unused.add("checks")
    if rules.passing is None:
        unused |= {"ask", "give", "get"}
    elif rules.passing.kind != "exchange":
        unused.add("ask")
    return [word for word in STEP_WORDS if word not in unused]


#: The seats' words of `seat` and `meld` (a player's name is the game's, not known here).
SEAT_WORDS = ("me", "partner", "left", "right")


def completions(before: str, text: str, steps: Sequence[str]) -> list[str]:
    """The words a line may take at this point that begin ``text`` (case aside), where
    ``before`` is the line up to the word being typed: first a step, a session's word or a
    card played; after ``trump`` or ``ask`` a suit; after a step of cards, cards; after
    ``seat`` a seat; after ``meld`` another seat, then its cards."""
    from meldcalc.game.session import CARD_STEPS
    from meldcalc.rules.cards import CARD_NAMES

    step, *given = before.lower().split() or [""]
    if not step:
        words: Sequence[str] = [*steps, "undo", "review", "quit", *CARD_NAMES]
    elif step in ("trump", "ask"):
        words = () if given else "SHDC"
    elif step == "seat":
        words = () if given else SEAT_WORDS
    elif step == "meld" and not given:
        words = [word for word in SEAT_WORDS if word != "me"]  # yours is counted from your hand
    elif step in CARD_STEPS or step == "play":  # a card played: a step of one card
        words = CARD_NAMES
    else:  # a bid's number, or a step that takes nothing
        words = ()
    return [word for word in words if word.lower().startswith(text.lower())]


class _Output:
    """Answers in the chosen format: lines for a player, or one JSON object a step."""

    def __init__(self, fmt: GameFormat, echo: bool = False) -> None:
        self.fmt, self.echoes = fmt, echo and fmt is GameFormat.text
        self.refused = 0  #: steps refused: a script is told by the exit code

    def echo(self, step: str) -> None:
        if self.echoes:  # a terminal's escapes typed in are shown, not sent on
            shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in step)
            say(f"> {shown}")

    def answer(self, number: int, step: str, lines: list[str], data: dict) -> None:
        if self.fmt is GameFormat.jsonl:
            say(
                json.dumps(
                    {"line": number, "step": step, **data, "said": lines}, ensure_ascii=False
                )
            )
        else:
            for line in lines:
                say(line)
        sys.stdout.flush()

    def error(self, number: int, message: str) -> None:
        self.refused += 1
        if self.fmt is GameFormat.jsonl:
            say(json.dumps({"line": number, "error": message}, ensure_ascii=False))
            sys.stdout.flush()
        fail(f"line {number}: {message}" if not _terminal() else message)

    def note(self, text: str) -> None:
        if self.fmt is GameFormat.jsonl:
            say(json.dumps({"note": text}, ensure_ascii=False))
        else:
            say(text)

    def kept(self, file: Path, path: Path, steps: list[str], before: str = "") -> None:
        """The session ends (quit, Ctrl-D, Ctrl-C): where the hand under way is kept, and
        how to go on with it."""
        if all(step.startswith("seat ") for step in steps):  # no step of the hand yet
            return
        if self.fmt is GameFormat.jsonl:
            before = ""
        import shlex

        self.note(
            f"{before}the hand is kept in {shown_path(path)} ({len(steps)}"
            f" step{'' if len(steps) == 1 else 's'}): `meldcalc game"
            f" {shlex.quote(str(file))}` goes on with it"
        )

    def standing(self, table: str, book: Any) -> None:
        if self.fmt is GameFormat.jsonl:
            standing = book.standing()
            say(json.dumps({"totals": list(standing.totals), "winner": standing.winner}))
        else:
            say(table)
