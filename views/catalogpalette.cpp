// SPDX-License-Identifier: GPL-3.0-or-later
#include "catalogpalette.h"

#include "model/validation/validationsummary.h"

#include <QDrag>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cp::views {

namespace {

constexpr int kindRole = Qt::UserRole + 1;
constexpr int idRole = Qt::UserRole + 2;

/** Drags the selected entry with the palette's count. */
class PaletteTree : public QTreeWidget
{
public:
    PaletteTree(CatalogPalette *palette)
        : QTreeWidget(palette)
        , m_palette(palette)
    {
        setDragEnabled(true);
        setDragDropMode(QAbstractItemView::DragOnly);
        setHeaderLabels({QObject::tr("Catalog"), QObject::tr("Details")});
        header()->setStretchLastSection(true);
        setRootIsDecorated(true);
    }

protected:
    void startDrag(Qt::DropActions) override
    {
        QTreeWidgetItem *item = currentItem();
        if (!item || item->data(0, idRole).toString().isEmpty())
            return;
        CatalogDrop drop;
        drop.kind = static_cast<model::CatalogKind>(item->data(0, kindRole).toInt());
        drop.id = item->data(0, idRole).toString().toStdString();
        drop.count = m_palette->dropCount();
        auto *drag = new QDrag(this);
        drag->setMimeData(mimeDataForDrop(drop));
        drag->exec(Qt::CopyAction);
    }

private:
    CatalogPalette *m_palette;
};

QString kindTitle(model::CatalogKind kind)
{
    switch (kind) {
    case model::CatalogKind::Gpu:
        return QObject::tr("GPUs");
    case model::CatalogKind::Node:
        return QObject::tr("Servers (nodes)");
    case model::CatalogKind::Nic:
        return QObject::tr("NICs and links");
    case model::CatalogKind::Switch:
        return QObject::tr("Switches");
    case model::CatalogKind::Storage:
        return QObject::tr("Storage");
    case model::CatalogKind::Rack:
        return QObject::tr("Racks");
    case model::CatalogKind::Facility:
        return QObject::tr("Facilities");
    case model::CatalogKind::Model:
        return QObject::tr("Models (workload)");
    case model::CatalogKind::Dataset:
        return QObject::tr("Datasets (training data)");
    }
    return {};
}

/** How many published runs the estimates on a GPU are set against (catalogs/validation). */
QString publishedRunsNote(const model::Catalog &catalog, const std::string &gpuId)
{
    const int training = model::countRowsMeasuredOn(
        catalog.publishedRuns(model::PublishedRunKind::Training).document.get(), gpuId);
    const int serving = model::countRowsMeasuredOn(
        catalog.publishedRuns(model::PublishedRunKind::Inference).document.get(), gpuId);
    if (training + serving == 0)
        return QObject::tr("No published training run or serving measurement on this GPU in "
                           "the validation tables: its estimates rest on the model alone.");
    return QObject::tr("Published on this GPU: %1 training runs and %2 serving measurements "
                       "(catalogs/validation); its estimates are set against them.")
        .arg(training)
        .arg(serving);
}

/** What "[U]" in a catalog source means, for the tooltips and the report. */
QString unsourcedNote()
{
    return QObject::tr("[U]: unsourced, a figure no datasheet or published measurement gives; "
                       "an order-of-magnitude value with its basis stated, to be replaced when "
                       "a source appears.");
}

QString details(const model::Catalog &catalog, model::CatalogKind kind, const std::string &id)
{
    switch (kind) {
    case model::CatalogKind::Gpu: {
        const auto &g = catalog.gpu(id);
        return QObject::tr("%1 GB, %2 W").arg(g.memoryBytes / 1e9, 0, 'f', 0).arg(g.tdpWatts);
    }
    case model::CatalogKind::Node: {
        const auto &n = catalog.node(id);
        return QObject::tr("%1 x %2")
            .arg(n.gpusPerNode)
            .arg(QString::fromStdString(catalog.gpu(n.gpuId).name));
    }
    case model::CatalogKind::Nic:
        return QObject::tr("%1 Gb/s").arg(catalog.nic(id).bytesPerSecond * 8 / 1e9, 0, 'f', 0);
    case model::CatalogKind::Switch: {
        const auto &s = catalog.networkSwitch(id);
        return QObject::tr("%1 x %2 Gb/s")
            .arg(s.ports)
            .arg(s.portBytesPerSecond * 8 / 1e9, 0, 'f', 0);
    }
    case model::CatalogKind::Storage:
        return QObject::tr("%1 GB/s read").arg(catalog.storage(id).readBytesPerSecond / 1e9);
    case model::CatalogKind::Rack:
        return QObject::tr("%1 kW").arg(catalog.rack(id).powerLimitWatts / 1e3);
    case model::CatalogKind::Facility:
        return QObject::tr("PUE %1").arg(catalog.facility(id).pue);
    case model::CatalogKind::Model:
        return QObject::tr("%1 layers, %2")
            .arg(catalog.llm(id).layers)
            .arg(QString::fromStdString(model::attentionDescription(catalog.llm(id))));
    case model::CatalogKind::Dataset: {
        const auto &d = catalog.dataset(id);
        return QObject::tr("%1, %2 kB per sample")
            .arg(QString::fromStdString(d.kind))
            .arg(d.bytesPerSample / 1e3, 0, 'g', 3);
    }
    }
    return {};
}

} // namespace

CatalogPalette::CatalogPalette(QWidget *parent)
    : QWidget(parent)
    , m_filter(new QLineEdit(this))
    , m_count(new QSpinBox(this))
    , m_tree(new PaletteTree(this))
{
    m_filter->setPlaceholderText(tr("Search the catalog…"));
    m_filter->setClearButtonEnabled(true);
    m_count->setRange(1, 100000);
    m_count->setValue(1);
    m_count->setToolTip(tr("How many servers (or storage systems) one drop adds"));
    auto *countRow = new QHBoxLayout;
    countRow->addWidget(new QLabel(tr("Add per drop:"), this));
    countRow->addWidget(m_count, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addLayout(countRow);
    layout->addWidget(m_tree, 1);
    auto *hint = new QLabel(tr("Drag a server onto the canvas to add it, onto a group to add "
                               "more; drop racks, NICs, switches, storage, a facility or a model "
                               "onto the plan to use them."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    connect(m_filter, &QLineEdit::textChanged, this, &CatalogPalette::rebuild);
}

void CatalogPalette::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
    rebuild();
}

void CatalogPalette::setFilter(const QString &text)
{
    m_filter->setText(text);
}

int CatalogPalette::dropCount() const
{
    return m_count->value();
}

void CatalogPalette::rebuild()
{
    m_tree->clear();
    if (!m_catalog)
        return;
    const QString filter = m_filter->text().trimmed();
    for (model::CatalogKind kind : model::allCatalogKinds()) {
        auto *group = new QTreeWidgetItem(m_tree, {kindTitle(kind)});
        group->setFlags(Qt::ItemIsEnabled);
        for (const std::string &id : m_catalog->ids(kind)) {
            const QString name = QString::fromStdString(m_catalog->nameOf(id));
            if (!filter.isEmpty() && !name.contains(filter, Qt::CaseInsensitive)
                && !QString::fromStdString(id).contains(filter, Qt::CaseInsensitive))
                continue;
            auto *item = new QTreeWidgetItem(group, {name, details(*m_catalog, kind, id)});
            item->setData(0, kindRole, static_cast<int>(kind));
            item->setData(0, idRole, QString::fromStdString(id));
            const QString source
                = QString::fromStdString(m_catalog->entryJson(id).value("source", ""));
            QString tip = name + QLatin1Char('\n') + item->text(1) + QLatin1Char('\n') + source;
            if (source.contains(QLatin1String("[U]")))
                tip += QLatin1Char('\n') + unsourcedNote();
            if (kind == model::CatalogKind::Gpu)
                tip += QLatin1Char('\n') + publishedRunsNote(*m_catalog, id);
            item->setToolTip(0, tip);
            item->setToolTip(1, tip);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
        }
        group->setHidden(group->childCount() == 0);
        group->setExpanded(!filter.isEmpty() || kind == model::CatalogKind::Node);
    }
    m_tree->resizeColumnToContents(0);
}

} // namespace cp::views
