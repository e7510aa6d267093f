// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>

namespace cp::views {

namespace {
QString axisTitle(model::SweepAxis axis)
{
    switch (axis) {
    case model::SweepAxis::GpuCount:
        return QObject::tr("GPU count");
    case model::SweepAxis::GpuType:
        return QObject::tr("GPU type");
    case model::SweepAxis::Nic:
        return QObject::tr("NIC speed / type");
    case model::SweepAxis::Oversubscription:
        return QObject::tr("Oversubscription");
    case model::SweepAxis::Precision:
        return QObject::tr("Precision");
    case model::SweepAxis::Batch:
        return QObject::tr("Batch size");
    }
    return {};
}

QString axisHint(model::SweepAxis axis)
{
    switch (axis) {
    case model::SweepAxis::GpuCount:
        return QObject::tr("Total GPUs, whole servers: e.g. 512, 2048, 4096");
    case model::SweepAxis::GpuType:
        return QObject::tr("GPU or server ids from the catalog: e.g. a100-sxm4-80gb, "
                           "h200-sxm-141gb");
    case model::SweepAxis::Nic:
        return QObject::tr("NIC ids: e.g. ib-hdr-200, ib-ndr-400, roce-400g");
    case model::SweepAxis::Oversubscription:
        return QObject::tr("Leaf oversubscription ratios (at least 1): e.g. 1, 2, 4");
    case model::SweepAxis::Precision:
        return QObject::tr("bf16, fp16, fp8 (training); also int8, int4 (inference)");
    case model::SweepAxis::Batch:
        return QObject::tr("Training: global batch in sequences; inference: concurrent "
                           "sequences. E.g. 32, 64");
    }
    return {};
}
} // namespace

SweepDialog::SweepDialog(QWidget *parent)
    : QDialog(parent)
    , m_axis(new QComboBox(this))
    , m_values(new QLineEdit(this))
    , m_choiceList(new QListWidget(this))
    , m_hint(new QLabel(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Sweep a parameter"));
    auto *form = new QFormLayout(this);
    for (model::SweepAxis axis : model::allSweepAxes())
        m_axis->addItem(axisTitle(axis), static_cast<int>(axis));
    form->addRow(tr("Axis"), m_axis);
    form->addRow(tr("Values"), m_values);
    form->addRow(m_choiceList);
    // Catalog names are long ("RoCE v2 400 GbE (ConnectX-7)"): room for them and a dozen rows.
    m_choiceList->setMinimumSize(420, 240);
    m_choiceList->hide();
    m_hint->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    form->addRow(m_hint);
    form->addRow(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &SweepDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SweepDialog::reject);
    connect(m_axis, &QComboBox::currentIndexChanged, this, &SweepDialog::updateHint);
    connect(m_choiceList, &QListWidget::itemChanged, m_error, &QLabel::clear);
    updateHint();
}

QString SweepDialog::errorText() const
{
    return m_error->text();
}

void SweepDialog::setChoices(model::SweepAxis axis,
                             const std::vector<std::pair<std::string, std::string>> &choices)
{
    m_choices[axis] = choices;
    updateHint();
}

void SweepDialog::updateHint()
{
    const auto axis = static_cast<model::SweepAxis>(m_axis->currentData().toInt());
    const auto choices = m_choices.find(axis);
    const bool listed = choices != m_choices.end() && !choices->second.empty();
    m_choiceList->clear();
    if (listed) {
        // People pick by the catalog's name; the id travels as the item's data.
        for (const auto &[id, name] : choices->second) {
            auto *item = new QListWidgetItem(QString::fromStdString(name), m_choiceList);
            item->setData(Qt::UserRole, QString::fromStdString(id));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
        }
    }
    m_choiceList->setVisible(listed);
    m_values->setVisible(!listed);
    m_hint->setText(listed ? tr("Tick one or more; each becomes a scenario.") : axisHint(axis));
    m_error->clear();
}

void SweepDialog::accept()
{
    QStringList values;
    if (m_choiceList->isVisibleTo(this)) {
        for (int row = 0; row < m_choiceList->count(); ++row)
            if (m_choiceList->item(row)->checkState() == Qt::Checked)
                values << m_choiceList->item(row)->data(Qt::UserRole).toString();
    } else {
        values = m_values->text().split(QRegularExpression(QStringLiteral("[,\\s]+")),
                                        Qt::SkipEmptyParts);
    }
    if (values.isEmpty()) {
        m_error->setText(m_choiceList->isVisibleTo(this) ? tr("Tick at least one.")
                                                         : tr("Give at least one value."));
        return;
    }
    const QString error = m_apply
        ? m_apply(static_cast<model::SweepAxis>(m_axis->currentData().toInt()), values)
        : tr("nothing to apply the sweep to");
    if (!error.isEmpty()) {
        m_error->setText(error);
        return;
    }
    QDialog::accept();
}

} // namespace cp::views
