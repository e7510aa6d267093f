// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "catalogdrop.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"

#include <QString>

#include <optional>

namespace cp::views {

/** What dropping a catalog entry does to the plan. */
struct DropOutcome
{
    std::optional<model::Plan> plan; ///< the edited plan; empty when the drop is refused
    QString description; ///< undo text ("Add 32 x DGX H100") or why it was refused
};

/**
 * Applies a palette drop onto the canvas item `targetKey` ("group:2", "fabric", "" for empty
 * canvas). Servers add a group (or more servers to a group of that type); racks rack a group;
 * NICs and switches set the fabric (refusing a switch that cannot carry the NIC's protocol);
 * storage, facilities and models set those parts. A GPU on its own is refused with the remedy.
 */
DropOutcome applyDrop(const model::Plan &plan, const model::Catalog &catalog,
                      const CatalogDrop &drop, const QString &targetKey);

} // namespace cp::views
