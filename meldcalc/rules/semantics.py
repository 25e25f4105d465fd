"""What a variant file's spec cannot see about the table and its house rules: a card pass
needs a partner, two hands each need two sides of two, a house switch needs the rule it
completes. `meldcalc.rules.loading` reports these beside the deck's and the melds' own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meldcalc.rules.yamlfile import Node


def blame(tree: Node, *nodes: Node) -> Node:
    """Of the nodes a problem involves, the first the user's own file wrote.

    A house file that changes one value can make an inherited one wrong; the problem is
    reported where the house file made it, not in the shipped parent."""
    return next((node for node in nodes if node.file == tree.file), nodes[0])


def table_problems(tree: Node) -> list[str]:
    """The pass, the seating and the house switches of a merged file."""
    return [*_passing_problems(tree), *_hands_each_problems(tree), *_house_problems(tree)]


def _passing_problems(tree: Node) -> list[str]:
    """A pass goes between partners sitting opposite, of fewer cards than a hand."""
    fields = tree.value
    passing = fields.get("passing")
    if passing is None or not isinstance(passing.value, dict):
        return []
    players, partnerships = fields["players"], fields["partnerships"]
    problems = []
    if not partnerships.value or players.value != 4:
        where = blame(tree, passing, players, partnerships)
        problems.append(
            where.problem("a card pass needs a partner: four players in two partnerships")
        )
    widow = fields.get("widow")
    if widow is not None and widow.value:
        problems.append(
            blame(tree, passing, widow).problem(
                "a card pass and a widow in one game: expected one or the other"
            )
        )
    cards, hand = passing.value["cards"], fields["hand_size"]
    if cards.value >= hand.value:
        problems.append(
            blame(tree, cards, hand).problem(
                f"passing {cards.value} cards from a hand of {hand.value}: expected fewer"
            )
        )
    simultaneous = passing.value.get("simultaneous")
    if simultaneous is not None and simultaneous.value and passing.value["kind"].value != "plain":
        problems.append(
            simultaneous.problem("only a plain pass can be simultaneous: the exchange asks first")
        )
    hands_each = fields.get("hands_each")
    if hands_each is not None and hands_each.value > 1:
        problems.append(
            blame(tree, passing, hands_each).problem(
                "a card pass between the two hands one player holds: expected 'passing: none'"
            )
        )
    return problems


def _hands_each_problems(tree: Node) -> list[str]:
    """Two hands each: the two hands of a side, so four hands in two partnerships."""
    fields = tree.value
    hands_each = fields.get("hands_each")
    if hands_each is None or hands_each.value == 1:
        return []
    players, partnerships = fields["players"], fields["partnerships"]
    if partnerships.value and players.value == 4:
        return []
    where = blame(tree, hands_each, players, partnerships)
    return [
        where.problem(
            "two hands each are the two hands of a side: expected 'players: 4' (hands) and"
            " 'partnerships: true'"
        )
    ]


def _house_problems(tree: Node) -> list[str]:
    """A forfeit under the meld minimum needs a minimum, and an auction to lose a bid in;
    throw-in advice needs an auction."""
    fields = tree.value
    house, bidding = fields.get("house"), fields["bidding"]
    auction = isinstance(bidding.value, dict)
    problems = []
    forfeit = house.value.get("forfeit_under_minimum") if house is not None else None
    if forfeit is not None and forfeit.value:
        minimum = house.value.get("meld_minimum")
        if minimum is None or not minimum.value:
            problems.append(
                forfeit.problem("a forfeit under the meld minimum needs 'meld_minimum' above 0")
            )
        if not auction:
            problems.append(blame(tree, forfeit, bidding).problem("a forfeit needs an auction"))
    return problems
