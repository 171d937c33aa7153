# Horticolor's English texts, loaded with the mode: one `key=text` a line. Same keys in
# fr_horticolor.py; a row holds 21 characters, a help text 15 (after the 5 of its key).
# Keys are longer than 10 characters on purpose: MicroPython interns shorter strings of the
# code for good (RAM). "|" separates the lines (or words) of one screen.
# Game terms as the English rulebook prints them: compost, mixes, shortage, draft,
# earthworms, synergy, marbles.
T = """
hc.quick_draft=Quick draft|off|on
hc.row_words=R|Mix|Sup|C|V|drop|over: discards|Final scoring|!|/
hc.draft_lines=Draft|Deal 5 cards each.|Keep 1, pass the rest|left, until 4 kept.|TURN: mixes ▶
hc.quick_lines=Draft|Quick draft: each|player draws 6 cards|and keeps 4.|TURN: mixes ▶
hc.hint_lines=→card ←compost ←~dice|Last phase: TURN ends|←→ drop  TURN: next|→ points  TURN: done
hc.all_valid=all validated!
hc.supply_over=Over the 24 tokens!
hc.points_now=Enter the points
hc.shortage_ask=Shortage: the others agree? (+1 compost)
hc.compost_of=compost:
hc.effect_lines=1 Ignore colour|2 Value ±1|4 Free marble
hc.cost_lines=Cost {}: {} left|Cost {} > {} held!
hc.compost_spent=Compost spent
hc.bonus_title=card bonus?
hc.bonus_lines=No bonus|+1 compost|+2 compost|+3 compost|Free marble now|Validate another
hc.free_marble=Place 1 free marble!
hc.dice_title=Dice
hc.dice_hint=←→die ↑↓1-6 OK roll
hc.total_of=total
hc.points_lines=Card points|Synergy|Earthworms|Validated cards
hc.help_mixes=start mixes
hc.help_player=choose player
hc.help_points1=±1, held ±10
hc.help_valid=validate a card
hc.help_unvalid=unvalidate card
hc.help_spend=spend compost
hc.help_dice=dice & mixes
hc.help_phase=end of phase
hc.help_shortage=shortage +1
hc.help_drop=discards -/+
hc.help_round=next round
hc.help_points=enter points
hc.help_finish=finish game
hc.help_spend_ok=spend
hc.help_die=choose a die
hc.help_value=value 1-6
hc.help_roll=roll the dice
r.hc_at_scoring=Game over: scoring
r.hc_use_undo=BACK undoes a TURN
r.hc_table_op=Not in Horticolor
r.hc_clockwise=Play goes clockwise
r.hc_in_draft=Draft first: TURN ▶
r.hc_round_over=The round is over
r.hc_all_valid=All cards validated
r.hc_none_valid=No validated card
r.hc_points_need_cards=No card: no points
r.hc_not_final=Only in final scoring
r.hc_not_mixes=Only in a mixes phase
r.hc_game_over=Not at the scoring
r.hc_compost_limit=99 tokens at most
r.hc_not_enough=Not enough compost
r.hc_not_active=Active player only
r.hc_shortage_done=Shortage: once only
r.hc_not_round_end=Only at a round end
r.hc_discard_range=Discards out of range
r.hc_no_effect=Choose an effect
hc.tie_rule=Tie: fewer cards won
hc.result_parts={}+{} syn+{} worm
"""
