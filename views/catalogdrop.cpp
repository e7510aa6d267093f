// SPDX-License-Identifier: GPL-3.0-or-later
#include "catalogdrop.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace cp::views {

QMimeData *mimeDataForDrop(const CatalogDrop &drop)
{
    auto *mime = new QMimeData;
    const QJsonObject object {
        {QStringLiteral("kind"), QString::fromStdString(model::catalogKindKey(drop.kind))},
        {QStringLiteral("id"), QString::fromStdString(drop.id)},
        {QStringLiteral("count"), drop.count}};
    mime->setData(QString::fromLatin1(catalogDropMimeType), QJsonDocument(object).toJson());
    mime->setText(QString::fromStdString(drop.id));
    return mime;
}

std::optional<CatalogDrop> dropFromMimeData(const QMimeData *mime)
{
    if (!mime || !mime->hasFormat(QString::fromLatin1(catalogDropMimeType)))
        return std::nullopt;
    const QJsonObject object
        = QJsonDocument::fromJson(mime->data(QString::fromLatin1(catalogDropMimeType))).object();
    const auto kind
        = model::catalogKindFromKey(object.value(QStringLiteral("kind")).toString().toStdString());
    if (!kind)
        return std::nullopt;
    CatalogDrop drop;
    drop.kind = *kind;
    drop.id = object.value(QStringLiteral("id")).toString().toStdString();
    drop.count = std::max(1, object.value(QStringLiteral("count")).toInt(1));
    return drop;
}

} // namespace cp::views
