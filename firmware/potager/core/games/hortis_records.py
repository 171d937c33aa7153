# HORTIS's records, checked when a save is restored (registry RECORDS, potager.restore_check),
# then forgotten. app.records["hortis"] (potager.ui.hortis_end): {"b": [best Automne, best
# Grove] (None before a first result), "rec": [[game 0-1, score], ...] (10 at most)}.


def records(v):
    if type(v) is not dict or len(v) != 2:
        return False
    best, rows = v.get("b"), v.get("rec")
    if type(best) is not list or len(best) != 2 or type(rows) is not list or len(rows) > 10:
        return False
    for b in best:
        if b is not None and type(b) is not int:
            return False
    for r in rows:
        if type(r) is not list or len(r) != 2 or r[0] not in (0, 1):
            return False
        if type(r[0]) is not int or type(r[1]) is not int or not -999 <= r[1] <= 9999:
            return False
    return True
