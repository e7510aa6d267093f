// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstddef>
#include <optional>

namespace cp::views {

// The keys that name a card on the canvas after the part of the plan it shows: "group:N" and
// "storage:N" (indices into Plan::nodeGroups and Plan::storage), "fabric", "workload",
// "facility". The scene, drops and links all speak them.

inline QString groupKey(std::size_t index)
{
    return QStringLiteral("group:%1").arg(index);
}

inline QString storageKey(std::size_t index)
{
    return QStringLiteral("storage:%1").arg(index);
}

/** N of "<prefix>N", or nothing when `key` is another card's. */
inline std::optional<int> cardIndex(const QString &key, const QString &prefix)
{
    if (!key.startsWith(prefix))
        return std::nullopt;
    bool ok = false;
    const int index = key.mid(prefix.size()).toInt(&ok);
    return ok && index >= 0 ? std::optional<int>(index) : std::nullopt;
}

inline std::optional<int> groupIndex(const QString &key)
{
    return cardIndex(key, QStringLiteral("group:"));
}

inline std::optional<int> storageIndex(const QString &key)
{
    return cardIndex(key, QStringLiteral("storage:"));
}

} // namespace cp::views
