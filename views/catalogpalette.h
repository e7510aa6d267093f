// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "catalogdrop.h"

#include "model/catalog/catalog.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLineEdit;
class QSpinBox;
class QTreeWidget;

namespace cp::views {

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
