// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"

#include <QFlags>

namespace cp::views {

/**
 * Which parts of a plan an edit changed, so each view redoes only what depends on them: a card
 * moved (Layout) re-estimates nothing, a renamed scenario rebuilds no card.
 */
enum class PlanPart : unsigned {
    Name = 1u << 0, ///< name and description
    Servers = 1u << 1, ///< node groups: type, count, rack, fabric port
    Fabric = 1u << 2,
    Storage = 1u << 3,
    Facility = 1u << 4,
    Workload = 1u << 5,
    Layout = 1u << 6, ///< card positions only
    Scenarios = 1u << 7,
    ActiveScenario = 1u << 8, ///< another variant is shown (its parts may all differ)
};
Q_DECLARE_FLAGS(PlanParts, PlanPart)
Q_DECLARE_OPERATORS_FOR_FLAGS(PlanParts)

/** Every part: a new or reopened document. */
inline constexpr PlanParts allPlanParts = PlanParts(0x1ffu);

/** The parts in which `after` differs from `before`, compared as the plan file writes them. */
PlanParts changedPlanParts(const model::Plan &before, const model::Plan &after);

/** Whether the shown plan's hardware or workload changed: what its cards and estimate show. */
inline bool changesShownDesign(PlanParts parts)
{
    return parts
        & (PlanParts(PlanPart::Servers) | PlanPart::Fabric | PlanPart::Storage | PlanPart::Facility
           | PlanPart::Workload | PlanPart::ActiveScenario);
}

/** True when only card positions changed: nothing an estimate or a form depends on. */
inline bool onlyLayoutChanged(PlanParts parts)
{
    return parts == PlanParts(PlanPart::Layout);
}

} // namespace cp::views
