// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plandrop.h"

#include "model/plan/plan.h"

#include <QString>

namespace cp::views {

/**
 * What dragging a link from the port of card `fromKey` and letting go over card `toKey` does
 * ("" for empty canvas). Server groups ("group:N") and storage ("storage:N") connect to the
 * fabric ("fabric"); letting go of a connected card's link anywhere but the fabric disconnects
 * it. Links between other cards are refused with what a link can join; a plan without a fabric
 * says how to add one.
 */
DropOutcome applyConnection(const model::Plan &plan, const QString &fromKey, const QString &toKey);

/** Whether the card `key` (a group or storage) is cabled to the fabric; false for other cards. */
bool isOnFabric(const model::Plan &plan, const QString &key);

/** The plan with card `key` (a group or storage) connected to or disconnected from the fabric. */
DropOutcome setOnFabric(const model::Plan &plan, const QString &key, bool onFabric);

} // namespace cp::views
