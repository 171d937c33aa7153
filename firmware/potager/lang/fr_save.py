# Textes des vérifications de sauvegarde au démarrage, chargés seulement pour être dits.
# Mêmes clés dans en_save.py ; une ligne tient 21 caractères ("#" : un nombre).
T = """
save4=Version plus récente
save5=Sauvegarde incomplète
save6=# actions retirées
save7=Réglages par défaut
save8=Records effacés
save9=# parties gardées
save10=Partie illisible
save11=Sauvegarde antérieure
"""
