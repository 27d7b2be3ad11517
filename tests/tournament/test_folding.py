"""One name folding: the database key keeps accents, chat matching drops them."""

from tournament import folding


def test_the_database_key_folds_case_and_spaces_but_keeps_accents() -> None:
    # Existing databases store name_key as " ".join(name.split()).casefold(): unchanged.
    assert folding.key("  Rocío   Pérez ") == "rocío pérez"
    assert folding.key("ROCÍO") != folding.key("Rocio")


def test_chat_matching_drops_accents_strokes_quotes_and_the_at_sign() -> None:
    assert folding.loose('"Łucja  Dørte"') == "lucja dorte"
    assert folding.loose("@Rocío") == "rocio"
    assert folding.loose("Última_Șansă") == "ultima_sansa"


def test_same_names_compare_by_the_database_key() -> None:
    assert folding.same("Ana  María", "ana maría")
    assert not folding.same("Ana María", "Ana Maria")
