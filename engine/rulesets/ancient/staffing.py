"""Who works where: buildings take workers from their province's people (ANC-AGRI-01).

The seed lists workers per building but not how they are assigned; we allocate greedily in
the order the buildings were built, each building taking the first worker option that fits
(docs/rules-decisions.md, ANC-AGRI-01). A building without its workers produces nothing.
"""

from __future__ import annotations

from .model import Province
from .rules import Building, Rules


def allocate(province: Province, rules: Rules, extra: Building | None = None) -> dict[str, bool]:
    """building name -> staffed?, for the province's buildings (plus `extra` if given)."""
    free = dict(province.population)
    out: dict[str, bool] = {}
    names = list(province.buildings) + ([extra.name_ru] if extra else [])
    for name in names:
        b = rules.buildings.get(name)
        if b is None or not b.workers:
            out[name] = True
            continue
        out[name] = False
        for option in b.workers:
            pool = sum(free.get(s, 0) for s in option.strata)
            if pool >= option.count:
                need = option.count
                for s in option.strata:  # lowest stratum first, in the option's order
                    take = min(need, free.get(s, 0))
                    free[s] = free.get(s, 0) - take
                    need -= take
                out[name] = True
                break
    return out
