# English texts of the save checks at boot, loaded only to be said (RAM).
# Same keys in fr_save.py; a row holds 21 characters ("#": a count).
T = """
save4=Save: newer firmware
save5=Last save incomplete
save6=# actions dropped
save7=Settings reset
save8=Records reset
save9=# games kept
save10=Game unreadable
save11=Older save resumed
"""
