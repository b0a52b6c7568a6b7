"""Every citation of the rules reference names a section that exists.

Docstrings, comments, messages, notebooks and the other docs cite
``rules.md 7.10`` (a heading of docs/rules.md) or ``rules.md 8.16`` (item 16
of section 8, the open items); docs/architecture.md "Citing the docs from
code".  A citation of a section that docs/rules.md lacks (a renumbered or
dropped section, or a copy of docs/rules.md that fell behind the shared
reference) fails here, with the files and lines that cite it.
"""
import re

from conftest import ROOT

RULES = ROOT / "docs" / "rules.md"

# "rules.md 2.2", "rules.md section 7", "rules.md 7.10, 8.16", "rules.md 2.2-2.3", "rules.md 5.2 / 5.8"
CITATION = re.compile(r"rules\.md(?:,?\s+(?:section|§))?\s+"
                      r"(\d+(?:\.\d+)?(?:\s*(?:,|-|–|/|and|or)\s*\d+(?:\.\d+)?)*)")


def sections() -> set:
    """The numbers docs/rules.md defines: its headings (``7``, ``7.10``) and
    the numbered items of section 8 (``8.16``)."""
    text = RULES.read_text(encoding="utf-8")
    heads = set(re.findall(r"^##+ (\d+(?:\.\d+)?)[ .]", text, re.M))
    open_items = text.split("\n## 8.", 1)[1].split("\n## 9.", 1)[0]
    return heads | {f"8.{n}" for n in re.findall(r"^\s*(\d+)\. \*\*", open_items, re.M)}


def citing_files() -> list:
    files = list((ROOT / "euchre_events").rglob("*.py")) + list((ROOT / "tests").glob("*.py"))
    files += list((ROOT / "notebooks").glob("*.ipynb")) + [ROOT / "README.md"]
    files += [p for p in (ROOT / "docs").glob("*.md") if p != RULES]
    return [p for p in files if "data" not in p.relative_to(ROOT).parts[:2]]


def test_the_sections_this_work_relies_on_exist():
    have = sections()
    # 2.7 (the renege toggles), 7.10 (double deck: no plain 12), 8.16 (settled)
    assert {"1.5", "2.2", "2.7", "2.9", "7.2", "7.10", "8.15", "8.16"} <= have


def test_every_rules_md_citation_names_an_existing_section():
    have = sections()
    missing: dict = {}
    count = 0
    for path in citing_files():
        text = path.read_text(encoding="utf-8")
        for m in CITATION.finditer(text):
            for num in re.findall(r"\d+(?:\.\d+)?", m.group(1)):
                count += 1
                if num not in have:
                    line = text.count("\n", 0, m.start()) + 1
                    missing.setdefault(num, []).append(f"{path.relative_to(ROOT)}:{line}")
    assert count > 100, "the pattern should find the package's many citations"
    assert not missing, missing


def test_the_project_copy_says_what_the_shared_reference_settled():
    # the points of issue 8 brought over from the shared reference
    text = RULES.read_text(encoding="utf-8")
    assert "a plain 12 does not exist here: 12 tricks are bid only as partner's best or the moon" in text
    assert "16. **F, double deck: a plain 12.** Settled: not a bid" in text
    assert "Two more toggles every preset takes" in text
    for name in ("lone_renege_value", "renege_claim_window", "renege_enforcement", "`first-chance`",
                 "`next-deal`", "`automatic`", "`claimed`", "dealer_may_discard_upcard",
                 "upcard-discarded", "plain-all-tricks-bid"):
        assert name in text, name
