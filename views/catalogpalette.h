// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"

#include <QMimeData>
#include <QWidget>

#include <memory>
#include <optional>

class QLineEdit;
class QSpinBox;
class QTreeWidget;

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

/**
 * The searchable catalog tree (GPUs, nodes, racks, NICs, switches, storage, facilities, models):
 * drag an entry onto the canvas. "Add" sets how many a drop adds ("add 32 of these").
 */
class CatalogPalette : public QWidget
{
    Q_OBJECT

public:
    explicit CatalogPalette(QWidget *parent = nullptr);
    void setCatalog(std::shared_ptr<const model::Catalog> catalog);
    void setFilter(const QString &text);
    int dropCount() const;
    QTreeWidget *tree() const { return m_tree; }

private:
    void rebuild();

    std::shared_ptr<const model::Catalog> m_catalog;
    QLineEdit *m_filter;
    QSpinBox *m_count;
    QTreeWidget *m_tree;
};

} // namespace cp::views
