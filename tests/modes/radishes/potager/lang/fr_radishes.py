# Course de radis : textes français (mêmes clés que en_radishes.py).
T = """
rd.target_field=Objectif
rd.target_of_10=10 radis
rd.target_of_20=20 radis
rd.target_of_30=30 radis
rd.header_text=Course à
rd.keys_hint=→ arracher ← remettre
rd.best_harvest=Record :
rd.help_pull_one=arracher un
rd.help_put_back=en remettre un
r.rd_race_is_over=La course est finie
r.rd_none_to_put_back=Aucun à remettre
"""
