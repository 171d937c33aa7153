# The radish race's records, checked when a save is restored (registry RECORDS):
# app.records["radishes"] = {"best": the most radishes a player pulled in a race}.


def records(value):
    return type(value) is dict and list(value) == ["best"] and type(value["best"]) is int
