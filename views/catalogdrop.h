// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"

#include <QMimeData>

#include <optional>
#include <string>

namespace cp::views {

/** What a palette drag carries: a catalog entry and how many of it to add. */
struct CatalogDrop
{
    model::CatalogKind kind = model::CatalogKind::Node;
    std::string id;
    int count = 1;
};

inline constexpr const char *catalogDropMimeType = "application/x-clusterplanner-catalog-item";
/** Encodes a drop as mime data, for drags and for tests that simulate them. */
QMimeData *mimeDataForDrop(const CatalogDrop &drop);
std::optional<CatalogDrop> dropFromMimeData(const QMimeData *mime);

} // namespace cp::views
