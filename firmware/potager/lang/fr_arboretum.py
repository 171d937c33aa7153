# Décompte d'Arboretum : textes français (mêmes clés que en_arboretum.py). Une ligne tient
# 21 caractères ; a.tree_name_<i> : les espèces comme l'édition française les nomme (mise en
# place), a.tree_short<i> : leur nom court à l'écran (7 caractères au plus) ; l'aide tient
# 15 caractères. Les clés ont 11 caractères ou plus : sur MicroPython, une chaîne plus courte
# dans le code resterait en RAM (qstr).
T = """
a.tree_name_0=Chêne
a.tree_name_1=Saule
a.tree_name_2=Jacaranda
a.tree_name_3=Lilas
a.tree_name_4=Cassia
a.tree_name_5=Flamboyant
a.tree_name_6=Cornouiller
a.tree_name_7=Magnolia
a.tree_name_8=Érable
a.tree_name_9=Tulipier
a.tree_name_10=Cerisier
a.tree_name_11=Épicéa bleu
a.tree_short0=Chêne
a.tree_short1=Saule
a.tree_short2=Jacar.
a.tree_short3=Lilas
a.tree_short4=Cassia
a.tree_short5=Flamb.
a.tree_short6=Cornou.
a.tree_short7=Magnol.
a.tree_short8=Érable
a.tree_short9=Tulip.
a.tree_short10=Ceris.
a.tree_short11=Épicéa
a.title_done=Faits
a.total_label=Total
a.hint_trees=→ ouvrir  OK menu
a.why_reason0=8 vaut 0
a.why_reason1=battu
a.why_reason2=personne
a.why_reason3=égalité
a.why_reason4=en tête
a.hint_values=OK en main? → sentier
a.hint_path_col=OK sentier  ← main
a.path_cards=Cartes
a.path_no_cards=aucun
a.path_flag_0=Même espèce
a.path_flag_1=Commence par 1
a.path_flag_2=Finit par 8
a.totals_title=Totaux
a.species_count=espèces
a.hint_totals=OK : fin de partie
a.help_open_row=ouvrir la ligne
a.help_player=joueur
a.help_column=valeur/sentier
a.help_toggle=en main/sentier
a.help_species=autre espèce
a.help_tiebreak=nb d'espèces
a.help_end_game=fin de partie
a.help_path_done=terminé
r.card_elsewhere=Carte d'un autre
r.hand_over_seven=7 cartes en main max
r.may_not_score=Ne peut pas compter
r.path_too_long=Trop long : 1..8
r.no_tie_to_break=Pas d'égalité
r.paths_to_enter=Sentiers à saisir
r.tie_break_needed=Égalité : espèces ?
u.17=%q chemin
u.18=%a %b espèces
"""
