# English texts of the setup form's names and memory (players.txt, "Same as last time"),
# loaded with the setup only.
T = """
nm.same_last=Same as last time ▶
nm.random_1st=random
nm.starts_now=Starts:
nm.help_seat=on a seat: name
nm.name_title=Name for
nm.name_none=P%d (no name)
nm.name_held= (P%d)
nm.file_title=Names skipped:
nm.file_line=line %d: %s
nm.file_reasons=too long|no name|bad letter|twice|too many|not UTF-8|file over 4 KB|seat label
nm.file_many=%d kept, %d extra
nm.file_more=and %d more
"""
