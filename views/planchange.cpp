// SPDX-License-Identifier: GPL-3.0-or-later
#include "planchange.h"

#include "model/plan/planio.h"

namespace cp::views {

PlanParts changedPlanParts(const model::Plan &before, const model::Plan &after)
{
    // The file form is the one complete description of a plan; comparing it part by part keeps
    // this in step with every field the format gains, at a cost of microseconds per edit.
    const nlohmann::json a = model::planToJson(before);
    const nlohmann::json b = model::planToJson(after);
    const auto differs = [&](const char *key) {
        const auto left = a.find(key);
        const auto right = b.find(key);
        if (left == a.end() || right == b.end())
            return (left == a.end()) != (right == b.end());
        return *left != *right;
    };
    PlanParts parts;
    if (differs("name") || differs("description"))
        parts |= PlanPart::Name;
    const std::pair<const char *, PlanPart> keyed[] = {
        {"nodes", PlanPart::Servers},       {"fabric", PlanPart::Fabric},
        {"storage", PlanPart::Storage},     {"facility", PlanPart::Facility},
        {"hall", PlanPart::Facility},       {"campus", PlanPart::Facility},
        {"workload", PlanPart::Workload},   {"layout", PlanPart::Layout},
        {"scenarios", PlanPart::Scenarios},
    };
    for (const auto &[key, part] : keyed)
        if (differs(key))
            parts |= part;
    return parts;
}

} // namespace cp::views
