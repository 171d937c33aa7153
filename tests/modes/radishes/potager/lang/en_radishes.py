# Radish race: English texts (same keys in fr_radishes.py).
T = """
rd.target_field=Target
rd.target_of_10=10 radishes
rd.target_of_20=20 radishes
rd.target_of_30=30 radishes
rd.header_text=Race to
rd.keys_hint=→ pull  ← put back
rd.best_harvest=Best harvest:
rd.help_pull_one=pull one
rd.help_put_back=put one back
r.rd_race_is_over=The race is over
r.rd_none_to_put_back=None to put back
"""
