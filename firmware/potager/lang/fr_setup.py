# Textes français du formulaire de mise en place (noms de players.txt, « Comme avant »),
# chargés avec lui seulement.
T = """
nm.same_last=Comme avant ▶
nm.random_1st=hasard
nm.starts_now=Commence :
nm.help_seat=siège : un nom
nm.name_title=Nom pour
nm.name_none=P%d (sans nom)
nm.name_held= (P%d)
nm.file_title=Noms ignorés :
nm.file_line=l.%d : %s
nm.file_reasons=trop long|vide|glyphe absent|en double|de trop|pas UTF-8|fichier > 4 Ko|nom de siège
nm.file_many=%d pris, %d en trop
nm.file_more=et %d de plus
"""
