"""`meldcalc game`: a hand followed at the table, from the cards you hold to the score.

Driven as a script drives it (steps on stdin) and as a player types at it (a real
pseudo-terminal); killed mid-trick and resumed; every figure held to what `score` and
`hint` give on the same hand.
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sessions import AWAY, read_until, run_game

from meldcalc.advice.played import play_one
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld

HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
RULES = load_variant("single-deck")
NAMES = {1: "left", 2: "partner", 3: "right"}


def _deal_played(seed: int = 3) -> tuple[list[str], object]:
    """A whole hand's steps: seat 0 holds HAND, bids 300 and names spades, the others
    pass and lay down their meld, and the cards fall as meldcalc's player plays them."""
    played = play_one(Hand.parse(HAND), RULES, Suit.SPADES, seed)
    steps = [f"hand {HAND}", "300", "pass", "pass", "pass", "trump S"]
    for seat in (1, 2, 3):
        total = best_meld(played.hands[seat], RULES, Suit.SPADES).total
        steps.append(f"meld {NAMES[seat]} {total}")
    steps += [card for trick in played.tricks for _, card in trick.cards]
    return steps, played


def _meldcalc(*argv: str) -> subprocess.CompletedProcess:
    """A meldcalc command run as a player runs it, away from the checkout; it must work."""
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=AWAY,
    )


def _standing(ledger: Path) -> dict:
    return json.loads(_meldcalc("score", "-g", str(ledger), "--show", "-f", "json").stdout)


def test_a_whole_hand_played_to_the_end_is_scored_as_score_would(tmp_path) -> None:
    steps, played = _deal_played()
    ledger = tmp_path / "g.jsonl"
    done = run_game(ledger, steps)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "the hand is over" in done.stdout
    meld = [
        sum(best_meld(played.hands[s], RULES, Suit.SPADES).total for s in side)
        for side in ((0, 2), (1, 3))
    ]
    by_hand = subprocess.run(
        [
            *(sys.executable, "-m", "meldcalc", "score", "--bid", "300", "--bidder", "0"),
            *("-f", "json", "--meld", f"{meld[0]},{meld[1]}"),
            *("--tricks", ",".join(map(str, played.points))),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=AWAY,
    )
    expected = [side["points"] for side in json.loads(by_hand.stdout)["sides"]]
    standing = _standing(ledger)
    assert standing["hands"][0]["points"] == expected and standing["hands"][0]["trump"] == "S"
    journal = (tmp_path / "g.jsonl.hand").read_text().splitlines()
    # the scored hand's steps gone; the next hand's begun, saying which deal it is
    assert journal == ['{"deal": 2}', '{"step": "seat 0"}']
    assert "hand 2: you deal" in done.stdout


def test_a_hand_killed_mid_trick_resumes_with_nothing_lost(tmp_path) -> None:
    steps, _ = _deal_played()
    cut = len(steps) - 22  # in the middle of a trick
    ledger = tmp_path / "g.jsonl"
    argv = [sys.executable, "-m", "meldcalc", "game", str(ledger), "--seat", "0", "-f", "jsonl"]
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=AWAY,
    )
    process.stdin.write("".join(step + "\n" for step in steps[:cut]))
    process.stdin.flush()
    answered, deadline = 0, time.monotonic() + 60
    while answered < cut and time.monotonic() < deadline:  # each step answered once journaled
        answered = json.loads(process.stdout.readline()).get("line", answered)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert answered == cut and not ledger.exists()  # an unfinished hand is never scored
    resumed = run_game(ledger, steps[cut:])
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith(f"resuming hand 1: {cut + 1} steps kept in")
    whole = tmp_path / "whole.jsonl"
    assert run_game(whole, steps).returncode == 0
    assert _standing(ledger)["hands"] == _standing(whole)["hands"]


def test_an_illegal_card_is_refused_and_the_hand_goes_on(tmp_path) -> None:
    from meldcalc.rules.tricks import legal_cards

    steps, played = _deal_played()
    start = steps.index("trump S") + 4
    held = list(played.hands[0].counts)
    for number, trick in enumerate(played.tricks):  # noqa: B007 (the trick found is used)
        cards = [Hand.parse(card).cards()[0].index for _, card in trick.cards]
        seats = [seat for seat, _ in trick.cards]
        mine = seats.index(0)
        if mine:
            allowed = legal_cards(held, cards[:mine], Suit.SPADES, RULES.head, RULES.overtrump)
            illegal = next(c for c in range(24) if held[c] and c not in allowed)
            break
        held[cards[0]] -= 1
    at = start + number * 4 + mine
    wrong = Hand([int(c == illegal) for c in range(24)]).notation()
    done = run_game(tmp_path / "g.jsonl", [*steps[:at], wrong, *steps[at:]])
    assert f"line {at + 1}: trick {number + 1}: seat 0 " in done.stderr
    assert "Traceback" not in done.stderr and done.returncode == 2  # a step was refused
    assert "the hand is over" in done.stdout  # the refused card left no trace


def test_undo_takes_back_a_card_across_a_trick(tmp_path) -> None:
    steps, _ = _deal_played()
    first_trick_end = steps.index("trump S") + 4 + 4
    ledger = tmp_path / "g.jsonl"
    done = run_game(ledger, [*steps[:first_trick_end], "undo", "show"])
    assert f"took back: {steps[first_trick_end - 1]}" in done.stdout
    shown = done.stdout.split("phase: play", 1)[1]
    played = " ".join(
        f"{seat}:{card}"
        for seat, card in enumerate(steps[first_trick_end - 4 : first_trick_end - 1])
    )
    assert f"trick 1: {played}" in shown
    again = run_game(ledger, [steps[first_trick_end - 1], "show"])  # resumed, the card played again
    assert "trick 1 to" in again.stdout


def test_the_sessions_hint_is_meldcalc_hints_on_the_same_position(tmp_path) -> None:
    steps, _ = _deal_played()
    upto = steps.index("trump S") + 4 + 8  # two tricks played: seat 0 to lead again?
    session = run_game(tmp_path / "g.jsonl", [*steps[:upto], "hint"], "--seed", "5", "-f", "jsonl")
    records = [json.loads(line) for line in session.stdout.splitlines()]
    hinted = next(r for r in records if r.get("step") == "hint")
    played = " ".join(steps[steps.index("trump S") + 4 : upto])
    known = []  # the others laid down totals, not cards: nothing known of their hands
    auction = "0:300 1:pass 2:pass 3:pass"  # as the session recorded it, and reads it
    direct = subprocess.run(
        [
            *(sys.executable, "-m", "meldcalc", "hint", HAND, "-t", "S", "--played", played),
            *("--seed", "5", "-f", "json", "--auction", auction, *known),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=AWAY,
    )
    record = json.loads(direct.stdout)
    assert hinted["best"] == record["best"]
    assert [c["card"] for c in hinted["cards"]] == [c["card"] for c in record["cards"]]
    assert [c["points"] for c in hinted["cards"]] == [
        round(c["points"], 2) for c in record["cards"]
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_a_player_types_at_the_prompt_in_a_real_terminal(tmp_path) -> None:
    ledger = tmp_path / "g.jsonl"
    pid, fd = pty.fork()
    if pid == 0:  # the child: meldcalc at a terminal
        os.chdir(AWAY)
        os.execv(sys.executable, [sys.executable, "-m", "meldcalc", "game", str(ledger)])
    try:
        assert "[hand] > " in read_until(fd, "[hand] > ")
        os.write(fd, b"hand AS 10S KS QS JS JD 9S AH AD AC KH QX\r")
        said = read_until(fd, "[hand] > ")
        assert "'QX'" in said and "column" in said  # a typo: said where, the hand unchanged
        os.write(fd, f"hand {HAND}\r".encode())
        said = read_until(fd, "[auction: you to bid] > ")
        assert "meld under each trump: S 320" in said and "Bid up to" in said
        os.write(fd, b"300\r")
        assert "seat 1 (left) to bid" in read_until(fd, "[auction: seat 1 (left) to bid] > ")
        os.write(fd, b"\x04")  # Ctrl-D: the session ends, the hand stays in its journal
        read_until(fd, "\n", 10)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    kept = [json.loads(line) for line in (tmp_path / "g.jsonl.hand").read_text().splitlines()]
    assert kept == [
        {"deal": 1, "variant": "single-deck"},
        {"step": f"hand {HAND}"},
        {"step": "300"},
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_tab_at_the_prompt_offers_what_the_line_takes_next(tmp_path) -> None:
    """Tab completes a step's word; after ``trump`` it offers the suits, after ``hand`` the
    cards, after ``meld`` the seats (pressed twice, readline lists the choices)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(AWAY)
        os.execv(sys.executable, [sys.executable, "-m", "meldcalc", "game", str(tmp_path / "g")])
    try:
        assert "[hand] > " in read_until(fd, "[hand] > ")
        os.write(fd, b"tru\t")
        assert "trump " in read_until(fd, "trump ")
        os.write(fd, b"\t\t")  # what readline lists, then the line typed so far again
        offered = read_until(fd, "> trump ", 10)
        assert set(offered.split()) >= {"C", "D", "H", "S"}, offered
        assert "10S" not in offered and "partner" not in offered
        os.write(fd, b"\x15meld \t\t")  # Ctrl-U: the line wiped
        offered = read_until(fd, "> meld ", 10)
        assert {"partner", "left", "right"} <= set(offered.split()), offered
        assert not {"me", "AS", "trump"} & set(offered.split()), offered
        os.write(fd, b"\x15hand A\t\t")
        offered = read_until(fd, "> hand A", 10)
        assert {"AC", "AD", "AH", "AS"} <= set(offered.split()), offered
        os.write(fd, b"\x15\x04")
        read_until(fd, "\n", 10)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0


#: A player at `game`'s prompt in a pseudo-terminal presses Ctrl-C mid-line: the terminal's
#: settings as the run found them, while it reads, and as it left them, and its exit code.
_CTRL_C_AT_THE_PROMPT = """
import json, os, pty, select, sys, termios, time
ledger, away, key = sys.argv[1], sys.argv[2], bytes([int(sys.argv[3])])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(away)
    os.execv(sys.executable, [sys.executable, "-m", "meldcalc", "game", ledger])
def read_until(wanted, seconds=30):
    seen, deadline = "", time.monotonic() + seconds
    while wanted not in seen and select.select([fd], [], [], deadline - time.monotonic())[0]:
        try:
            seen += os.read(fd, 4096).decode(errors="replace")
        except OSError:
            break
    return seen
lflags = [termios.tcgetattr(fd)[3]]  # a pseudo-terminal's two ends share their settings
prompt = read_until("[hand] > ")
os.write(fd, b"hand AS 10S")
read_until("10S")
lflags.append(termios.tcgetattr(fd)[3])
for _ in range(100):  # ten seconds to end; Ctrl-C again each half second (see the test)
    if _ % 5 == 0:
        os.write(fd, key)
    ended, status = os.waitpid(pid, os.WNOHANG)
    if ended:
        break
    time.sleep(0.1)
else:
    os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
lflags.append(termios.tcgetattr(fd)[3])
echo_and_lines = termios.ECHO | termios.ICANON
print(json.dumps({"prompt": prompt, "code": os.waitstatus_to_exitcode(status),
                  "echo": [flags & echo_and_lines == echo_and_lines for flags in lflags]}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
@pytest.mark.parametrize(("key", "code"), [(0x03, 130), (0x1C, 131)], ids=["ctrl-c", "ctrl-\\"])
def test_ctrl_c_at_the_prompt_leaves_the_terminal_as_it_found_it(tmp_path, key, code) -> None:
    """The prompt's line editing turns echo off while it reads: a Ctrl-C (or Ctrl-\\) that
    ends the run there must turn it on again, or the player's shell is left typing blind
    (under dash, which does not reset the terminal itself). (The terminal
    is driven from a process of its own, and Ctrl-C pressed again each half second until
    the run ends: a Ctrl-C sent the instant the prompt shows can fall before readline
    waits for input, and go unanswered (`sessions.waiting_for_input`).)"""
    argv = [sys.executable, "-c", _CTRL_C_AT_THE_PROMPT, str(tmp_path / "g"), str(AWAY), str(key)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert "[hand] > " in seen["prompt"] and seen["code"] == code
    # found as a shell leaves it, the line editor's own while it reads, then as found
    assert seen["echo"] == [True, False, True]


def test_the_review_of_your_play_prices_each_card_as_seen_and_as_the_solver_does(tmp_path) -> None:
    # any deal played out; seed 7's costs cards in both columns and reviews quickly
    steps, _ = _deal_played(seed=7)
    done = run_game(
        tmp_path / "g.jsonl", [*steps, "review"], "--seed", "1", "-f", "jsonl", "-j", "2"
    )
    assert done.returncode == 0, done.stderr
    reviewed = next(json.loads(line) for line in done.stdout.splitlines() if '"review"' in line)
    rows = reviewed["review"]
    assert [row["trick"] for row in rows] == list(range(1, 13))  # every trick: seat 0's card
    assert all(row["lost_seen"] >= 0 and row["lost_exact"] >= 0 for row in rows)
    argv = ["play", HAND, "-t", "S", "--seed", "7", "--review", "-f", "json"]
    solved = _meldcalc(*argv)
    costs = [
        (card["card"], card["cost"])
        for trick in json.loads(solved.stdout)["tricks"]
        for card in trick["cards"]
        if card["seat"] == 0
    ]
    assert [(row["card"], row["lost_exact"]) for row in rows] == costs


def test_review_view_prices_a_seats_cards_as_the_sessions_review_does(tmp_path) -> None:
    from meldcalc.advice.replay import played_line
    from meldcalc.cli.play import played_json

    steps, played = _deal_played(seed=4)
    done = run_game(tmp_path / "g.jsonl", [*steps, "review"], "-f", "jsonl")
    session = next(json.loads(line) for line in done.stdout.splitlines() if '"review"' in line)
    argv = ["review", played_line(played_json(played)), "--view", "me", "-f", "json"]
    argv += ["--auction", "0:300 1:pass 2:pass 3:pass"]  # the session's, read by its review
    viewed = _meldcalc(*argv)
    view = json.loads(viewed.stdout)["view"]
    assert view["seat"] == 0 and view["review"] == session["review"]


def test_a_review_already_made_prices_a_seats_cards_as_one_made_for_them() -> None:
    from meldcalc.advice.review import review
    from meldcalc.advice.seen import price_as_seen

    # review --view reuses its own exact review (its seat's and the view's cards compared)
    _, played = _deal_played(seed=4)
    made = review(played, RULES, compared=(0, 1))
    assert price_as_seen(played, RULES, 1, reviewed=made) == price_as_seen(played, RULES, 1)


def test_the_review_on_two_cores_prices_every_card_as_one_core_does() -> None:
    from meldcalc.game.session import replay, review_mine, start

    # Any deal played out shows it; seed 7's prices cards off the best in both columns (as
    # seen and exact), and its exact review is among the quickest: seed 5's took 5 times
    # longer than any other of seeds 1-12.
    steps, _ = _deal_played(seed=7)
    table = replay(start(RULES, dealer=3), ["seat 0", *steps])
    assert review_mine(table, seed=2, jobs=2) == review_mine(table, seed=2, jobs=1)


def test_a_planted_or_edited_journal_is_refused_with_its_place(tmp_path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("secret\n")
    (tmp_path / "g.jsonl.hand").symlink_to(victim)
    done = run_game(tmp_path / "g.jsonl", ["show"])
    assert done.returncode == 2 and "g.jsonl.hand: a symbolic link" in done.stderr
    assert victim.read_text() == "secret\n"
    (tmp_path / "g.jsonl.hand").unlink()
    (tmp_path / "g.jsonl.hand").write_text('{"step": "seat 0"}\n{"step": "bid 99999"}\n')
    edited = run_game(tmp_path / "g.jsonl", ["show"])
    assert "g.jsonl.hand: step 2 'bid 99999': bid: not now" in edited.stderr
    assert "was the file edited?" in edited.stderr and "Traceback" not in edited.stderr


def test_at_your_turn_to_bid_the_prompt_gives_your_odds_at_the_auctions_level(tmp_path) -> None:
    steps = [f"hand {HAND}", "300", "450", "480", "pass"]
    done = run_game(tmp_path / "g.jsonl", steps, "--seed", "1")
    bid = subprocess.run(
        [sys.executable, "-m", "meldcalc", "bid", HAND, "-n", "1000", "--seed", "1", "-f", "total"],
        capture_output=True,
        text=True,
        check=True,
        cwd=AWAY,
    )
    limit, trump = bid.stdout.split()
    lines = done.stdout.splitlines()
    assert (
        "no bid yet; you to bid: 250 is made in every one of 1000 simulated deals with"
        f" {trump}; go on up to {limit}"
    ) in lines
    last = lines[-1]  # after 480 and a pass: the next legal bid is 490
    assert last.startswith("the bid is 480 (seat 2 (partner)); you to bid: 490 is made")


def test_a_new_games_hand_resumes_under_the_variant_it_began_with(tmp_path) -> None:
    ledger = tmp_path / "dd.jsonl"
    hand = "hand AS AS 10S KS QS JS JS JS 10H KH JH JH JH AD KD QD AC 10C KC QC"
    begun = run_game(ledger, [hand], "-V", "double-deck")
    assert begun.returncode == 0, begun.stderr
    resumed = run_game(ledger, ["show"])  # no -V: the journal says double deck
    assert resumed.returncode == 0 and "your hand: AS AS 10S" in resumed.stdout
    other = run_game(ledger, ["show"], "-V", "single-deck")
    assert other.returncode == 2 and "played under 'double-deck': leave out -V" in other.stderr


# --- the widow and the pass ------------------------------------------------------------------


def _three_handed(seed: int = 4) -> tuple[list[str], object, object]:
    """A three-handed hand: seat 0 bids 300, takes the widow, names hearts and buries as
    meldcalc's player does; the others lay down totals; the cards fall as its rules play
    them (seed 4: seat 0 goes set)."""
    from meldcalc.dealing.deal import deals

    rules = load_variant("three-handed")
    hand = next(deals(rules, 1, seed)).hands[0]
    played = play_one(hand, rules, Suit.HEARTS, seed, "rules")
    steps = [f"hand {hand.notation()}", "300", "pass", "pass", f"widow {played.widow.notation()}"]
    steps += ["trump H", f"bury {played.buried.notation()}", "meld left 50", "meld right 60"]
    steps += [card for trick in played.tricks for _, card in trick.cards]
    return steps, played, hand


def test_a_three_handed_hand_takes_the_widow_buries_and_is_scored_with_the_burial(
    tmp_path,
) -> None:
    steps, played, hand = _three_handed()
    ledger = tmp_path / "three.jsonl"
    full = hand + played.widow
    absent = next(
        card for card in load_variant("three-handed").deck.cards() if not full.count(card)
    )
    refused = [*steps[:6], f"bury {absent} {played.buried.notation()}", *steps[6:]]
    done = run_game(ledger, refused, "-V", "three-handed", "-f", "jsonl")
    assert done.returncode == 2 and "bury: 4 cards, expected 3" in done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert next(r for r in records if r.get("step") == "trump H")["said"][-1].startswith("bury 3")
    counted = best_meld(hand + played.widow, load_variant("three-handed"), Suit.HEARTS).total
    assert next(r for r in records if "your_meld" in r)["your_meld"] == counted
    refused = [*steps[:6], f"bury {absent} {' '.join(map(str, played.buried.cards()[1:]))}"]
    other = run_game(tmp_path / "other.jsonl", refused, "-V", "three-handed")
    assert f"bury {absent}: not in your hand and the widow" in other.stderr
    standing = _standing(ledger)
    scored = standing["hands"][0]
    tricks = scored["tricks"]
    assert scored["bidder"] == 0 and sum(tricks) == 250
    assert tricks[0] == played.points[0]  # its tricks and its burial, as simulated


def test_a_three_handed_session_judges_the_bid_by_the_three_scores(tmp_path) -> None:
    steps, _, _ = _three_handed()
    second = ["hand AS 10S KS QS JS JD 9S AH AD AC KH QH 9C 9D 9H", "300", "310"]
    done = run_game(tmp_path / "g.jsonl", [*steps, *second], "-V", "three-handed", "--seed", "1")
    assert done.returncode == 0, done.stderr
    totals = _standing(tmp_path / "g.jsonl")["totals"]
    assert min(totals) < 0  # seat 0 went set: the scores are said with "to"
    said = " to ".join(map(str, totals))
    assert f"; to win the game at {said}: " in done.stdout.splitlines()[-1]


def test_the_sessions_hint_with_a_widow_is_meldcalc_hints_with_the_burial(tmp_path) -> None:
    steps, played, _ = _three_handed(seed=6)
    upto = steps.index("meld right 60") + 1 + 3  # a trick played: seat 0 to lead again
    session = run_game(
        tmp_path / "g.jsonl", [*steps[:upto], "hint"], "-V", "three-handed", "-f", "jsonl"
    )
    hinted = next(json.loads(line) for line in session.stdout.splitlines() if '"best"' in line)
    cards = " ".join(steps[upto - 3 : upto])
    argv = ["hint", played.hands[0].notation(), "-t", "H", "-V", "three-handed", "--played"]
    argv += [cards, "--buried", played.buried.notation(), "--seat", "0", "-f", "json"]
    direct = json.loads(_meldcalc(*argv).stdout)
    assert hinted["best"] == direct["best"]
    assert [c["points"] for c in hinted["cards"]] == [c["points"] for c in direct["cards"]]


def test_the_card_exchange_holds_the_asked_suit_and_the_partner_keeps_what_you_sent() -> None:
    from meldcalc.dealing.deal import deals
    from meldcalc.game.session import apply, replay, start

    rules = load_variant("double-deck-toby-thomas")
    hands = next(deals(rules, 1, 8)).hands
    mine = hands[2]  # you sit opposite the bidder, seat 0
    hearts = [card for card in mine.cards() if card.suit is Suit.HEARTS]
    others = [card for card in mine.cards() if card.suit is not Suit.HEARTS]
    table = replay(start(rules, 3), ["seat 2", f"hand {mine.notation()}", "30", "pass", "pass"])
    table = replay(table, ["pass", "ask H"])
    assert table.phase == "pass"
    with pytest.raises(MeldcalcError, match="♥ was asked for and you hold"):
        apply(table, "give " + " ".join(str(card) for card in others[:3]))
    sent = Hand.from_cards((hearts + others)[:3])
    back = Hand.from_cards(hands[0].cards()[:3])  # the bidder's cards, passed back
    table = replay(table, [f"give {sent.notation()}", "trump H", f"get {back.notation()}"])
    assert table.phase == "meld"
    kept = Hand([max(a - b, 0) for a, b in zip(sent.counts, back.counts)])
    assert table.known() == ((f"0:{kept.notation()}",) if len(kept) else ())
    expected = [a - b + c for a, b, c in zip(mine.counts, sent.counts, back.counts)]
    assert table.playing.counts == tuple(expected) and len(table.playing) == 20


def test_a_typo_in_a_steps_cards_is_placed_at_its_column_in_the_line_as_typed() -> None:
    from meldcalc.errors import NotationError
    from meldcalc.game.session import apply, replay, start

    table = replay(start(RULES, dealer=3), ["seat 0"])
    with pytest.raises(NotationError, match=r"^'KX' at column 9: a suit is one of"):
        apply(table, "hand AS KX")
    with pytest.raises(NotationError, match=r"^'Kx' at column 12: 'x' at column 13 starts"):
        apply(table, "hand  S: A Kx")
    table = replay(table, [f"hand {HAND}", "300", "pass", "pass", "pass", "trump S"])
    with pytest.raises(NotationError, match=r"^'KX' at column 18: a suit is one of"):
        apply(table, "meld  left   AS  KX")
    assert apply(table, "meld  left   KD  QD").data == {"seat": 1, "meld": 20}
    assert apply(table, "meld\tleft\tKD QD").data == {"seat": 1, "meld": 20}  # tabs too
    with pytest.raises(MeldcalcError, match=r"^meld left: give its meld: a total \(meld left"):
        apply(table, "meld left  ")
    with pytest.raises(MeldcalcError, match=r"^meld: give a seat and its meld"):
        apply(table, "meld")
    three = load_variant("three-handed")
    table = replay(start(three, dealer=2), ["seat 0", f"hand {HAND} 9H 9C 9D", "300"])
    table = replay(table, ["pass", "pass"])
    with pytest.raises(NotationError, match=r"^'KX' at column 11: a suit is one of"):
        apply(table, "widow 10S KX JC")


def test_blanks_typed_before_a_step_keep_its_columns_and_stay_out_of_the_journal(
    tmp_path,
) -> None:
    done = run_game(tmp_path / "g.jsonl", ["  hand AS KX", f"   hand {HAND}"])
    assert "'KX' at column 11: a suit is one of" in done.stderr
    kept = [json.loads(line) for line in (tmp_path / "g.jsonl.hand").read_text().splitlines()]
    assert kept[-1] == {"step": f"hand {HAND}"}


def test_a_new_games_names_and_target_are_kept_for_its_first_hand(tmp_path) -> None:
    """A new game's first hand resumes under the names and target it began with: seats
    named by them read the same seats; other names or another target are refused."""
    ledger = tmp_path / "n.jsonl"
    hand = "hand JS 9S JH JH AD 10D JD 9D AC 10C KC QC QC JC 9C"
    begun = _namedrun_game(ledger, [hand], "--names", "Ann,Bo,Cy", "--to", "500", "--seat", "Bo")
    assert begun.returncode == 0, begun.stderr
    assert begun.stdout.splitlines()[0] == "hand 1: Cy (left) deals"  # from your seat
    first = json.loads((tmp_path / "n.jsonl.hand").read_text().splitlines()[0])
    assert first == {"deal": 1, "variant": "three-handed", "names": ["Ann", "Bo", "Cy"], "to": 500}
    again = _namedrun_game(ledger, ["show"])
    assert again.returncode == 0 and "Cy (left) deals" in again.stdout
    changed = ((["--names", "Bo,Ann,Cy"], "leave out --names"), (["--to", "900"], "leave out --to"))
    for option, said in changed:
        refused = _namedrun_game(ledger, ["show"], *option)
        assert refused.returncode == 2 and said in refused.stderr


def _namedrun_game(ledger: Path, steps: list[str], *options: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "meldcalc", "game", str(ledger), "-V", "three-handed", *options]
    return subprocess.run(
        argv, input="\n".join(steps) + "\n", capture_output=True, text=True, timeout=120, cwd=AWAY
    )


def test_a_closed_stdin_or_a_linked_ledger_is_one_line_before_any_journal(tmp_path) -> None:
    closed = subprocess.run(
        [sys.executable, "-m", "meldcalc", "game", str(tmp_path / "g.jsonl")],
        capture_output=True,
        text=True,
        cwd=AWAY,
        preexec_fn=lambda: os.close(0),
    )
    assert closed.returncode == 2 and "standard input is closed" in closed.stderr
    assert not (tmp_path / "g.jsonl.hand").exists()
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    linked = run_game(tmp_path / "link.jsonl", ["show"])
    assert linked.returncode == 2 and "a symbolic link" in linked.stderr


def test_once_the_game_has_a_score_your_bid_is_judged_by_the_game_too(tmp_path) -> None:
    steps, _ = _deal_played()
    second = [f"hand {HAND}", "pass", "300", "pass"]  # hand 2: you deal, and speak last
    done = run_game(tmp_path / "g.jsonl", [*steps, *second], "--seed", "1", "-f", "jsonl")
    assert done.returncode == 0, done.stderr
    said = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    last = said[-1]["said"][-1]
    totals = _standing(tmp_path / "g.jsonl")["totals"]
    assert f"; to win the game at {totals[0]}-{totals[1]}: " in last, last
    first = next(r for r in said if r.get("step") == f"hand {HAND}")["said"][-1]
    assert "to win the game" not in first  # hand 1, at 0-0: the plain odds say it


def test_a_start_refused_or_left_with_no_step_binds_nothing(tmp_path) -> None:
    """A bad --seat or --to keeps no journal; a session left before any step leaves a
    journal that a new start under other settings may replace."""
    journal = tmp_path / "s.jsonl.hand"

    def begin(*options: str) -> subprocess.CompletedProcess:
        argv = [sys.executable, "-m", "meldcalc", "game", str(tmp_path / "s.jsonl"), *options]
        return subprocess.run(argv, input="", capture_output=True, text=True, timeout=120,
                              cwd=AWAY)  # fmt: skip

    for option in (["--seat", "9"], ["--to", "10000001"]):
        refused = begin(*option)
        assert refused.returncode == 2 and not journal.exists(), refused.stderr
    assert begin().returncode == 0  # opened and left: single deck, no step typed
    other = begin("-V", "double-deck")
    assert other.returncode == 0, other.stderr
    assert json.loads(journal.read_text().splitlines()[0]) == {"deal": 1, "variant": "double-deck"}


def test_a_meld_no_hand_could_make_is_refused_when_typed(tmp_path) -> None:
    """A side's meld above what a game keeps was once taken, and the finished hand then
    could not be recorded (nor the game resumed); a total above what the seat's unseen
    cards can meld (5,000 where 390 is the most) was scored. Both are refused at their
    step, the most said, and the hand goes on."""
    ledger = tmp_path / "g.jsonl"
    steps = [f"hand {HAND}", "300", "pass", "pass", "pass", "trump S",
             "meld left 99999990", "meld left 9999990", "meld right 20",
             "meld left 380", "meld partner 40", "meld right 20", "tricks 160"]  # fmt: skip
    done = run_game(ledger, steps, "--seed", "1", "--policy", "rules")
    assert "meld '99999990': expected the seat's meld as a whole number from 0 to" in done.stderr
    assert (
        "line 8: meld 9999990: the most seat 1 (left) can meld from the cards it may hold"
        " (12 of those you have not seen) is 390: a typo?" in done.stderr
    )
    assert "Traceback" not in done.stderr
    assert "seat 3 (right) melds 20 (in place of the 20 typed before)" in done.stdout
    assert '"meld": [360, 400]' in ledger.read_text()


def test_a_deal_every_seat_passed_goes_round_after_a_restart(tmp_path) -> None:
    """The next dealer deals after four passes; the ledger keeps the passed deal, so a
    session started again (or the next hand scored) deals from the right seat."""
    from meldcalc.game import ledger

    game = tmp_path / "g.jsonl"
    passed = run_game(game, [f"hand {HAND}", "pass", "pass", "pass", "pass"], "--policy", "rules")
    # the ledger numbers the hands scored: the next is still hand 1, dealt as deal 2
    assert "every seat passed" in passed.stdout
    assert passed.stdout.endswith("hand 1 (deal 2): you deal\n")
    again = run_game(game, ["show"], "--policy", "rules")
    assert again.returncode == 0, again.stderr
    assert "hand 1 (deal 2): you deal" in again.stdout
    book = ledger.read(game)
    assert book is not None and (book.passed, book.deals, book.hands) == (1, 1, ())
    lines = game.read_text().splitlines()
    game.write_text("\n".join([*lines[:-1], '{"passed": 3}']) + "\n")  # not the next deal
    edited = run_game(game, ["show"], "--policy", "rules")
    assert edited.returncode == 2
    assert 'g.jsonl:2: expected {"passed": 1}, the next deal passed' in edited.stderr


def test_the_tricks_step_says_how_many_numbers_and_where_the_hand_is(tmp_path) -> None:
    steps = ["hand AS 10S KS QS JS JD 9S AH AD AC KH QH 9H 9C 9D", "300", "pass", "pass",
             "widow 10S KD JC", "trump S", "bury 9H 9C 9D", "meld left 20", "meld right 40",
             "tricks 125", "tricks 125 100", "tricks 125,100", "tricks 125,100"]  # fmt: skip
    done = run_game(tmp_path / "g.jsonl", steps, "-V", "three-handed", "--policy", "rules")
    assert (
        "tricks '125': expected 3 numbers, one a side in order, or the first 2 (the last side"
        " takes the rest); got 1"
    ) in done.stderr
    assert "tricks '125 100': expected trick points, a side's after a comma" in done.stderr
    assert "Traceback" not in done.stderr and "seat 0 bid 300 and made it" in done.stdout.lower()
    assert "tricks: not now: your hand is not typed yet (hand CARDS)" in done.stderr


def test_a_bid_the_ledger_could_not_keep_is_refused_when_typed(tmp_path) -> None:
    steps = [f"hand {HAND}", "99999990", "10000010", "10000000", "pass", "pass", "pass",
             "trump S", "tricks 160"]  # fmt: skip
    done = run_game(tmp_path / "g.jsonl", steps, "--policy", "rules")
    assert "'10000010': expected a bid such as 250 (at most 10,000,000), or pass" in done.stderr
    assert "you won the auction at 10000000" in done.stdout
    assert "went set" in done.stdout and "not recorded" not in done.stderr


def test_a_game_that_cannot_take_another_deal_is_refused_before_one_is_typed(tmp_path) -> None:
    """A won game, or another --to, was once found out only when the deal was over (its
    journal then stuck); a session ends once its game is won."""
    won = tmp_path / "won.jsonl"
    steps = [f"hand {HAND}", "300", "pass", "pass", "pass", "trump S", "tricks 160",
             f"hand {HAND}"]  # fmt: skip
    done = run_game(won, steps, "--to", "300", "--policy", "rules")
    assert done.stdout.endswith("the game is over: play the next one in a new file\n")
    assert not (tmp_path / "won.jsonl.hand").exists()
    again = run_game(won, [f"hand {HAND}"], "--policy", "rules")
    assert again.returncode == 2 and "won.jsonl: the game is over" in again.stderr
    assert again.stdout == ""
    other = run_game(won, [f"hand {HAND}"], "--to", "500", "--policy", "rules")
    assert "won.jsonl is a game to 300: leave out --to" in other.stderr
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(won.read_bytes().rsplit(b"\n", 2)[0] + b'\n{"hand": 2, "bi')
    cut = run_game(torn, [f"hand {HAND}"], "--policy", "rules")
    assert cut.returncode == 2 and "a torn last line" in cut.stderr and cut.stdout == ""
    assert "nothing is added after it" in cut.stderr


def test_a_hand_before_a_passed_deal_cannot_be_taken_back(tmp_path) -> None:
    """Taking it back would deal the passed deal's number again."""
    game = tmp_path / "g.jsonl"
    _meldcalc("score", "-g", str(game), "--bid", "250", "--bidder", "0", "--meld", "200,50",
              "--tricks", "160")  # fmt: skip
    run_game(game, [f"hand {HAND}", "pass", "pass", "pass", "pass"], "--policy", "rules")
    assert game.read_text().splitlines()[-1] == '{"passed": 2}'
    undo = subprocess.run(
        [sys.executable, "-m", "meldcalc", "score", "-g", str(game), "--undo"],
        capture_output=True, text=True, cwd=AWAY,
    )  # fmt: skip
    assert undo.returncode == 2 and "can no longer be taken back" in undo.stderr
    with game.open("a") as edited:
        edited.write('{"undo": 1}\n')
    shown = run_game(game, ["show"], "--policy", "rules")
    assert "g.jsonl:4: undo 1: a passed deal follows the last hand" in shown.stderr


def test_a_ledger_planted_as_a_link_is_refused_before_it_is_read(tmp_path) -> None:
    """Not read through (its target's first line was once reported as a bad ledger line)."""
    victim = tmp_path / "victim"
    victim.write_text("secret\n")
    (tmp_path / "g.jsonl").symlink_to(victim)
    done = run_game(tmp_path / "g.jsonl", [f"hand {HAND}"], "--policy", "rules")
    assert done.returncode == 2 and "g.jsonl: a symbolic link: give the ledger itself" in (
        done.stderr
    )
    assert "secret" not in done.stderr and victim.read_text() == "secret\n"
