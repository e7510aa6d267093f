// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
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
    , m_hint(new QLabel(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Sweep a parameter"));
    auto *form = new QFormLayout(this);
    for (model::SweepAxis axis : model::allSweepAxes())
        m_axis->addItem(axisTitle(axis), static_cast<int>(axis));
    form->addRow(tr("Axis"), m_axis);
    form->addRow(tr("Values"), m_values);
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
    updateHint();
}

QString SweepDialog::errorText() const
{
    return m_error->text();
}

void SweepDialog::updateHint()
{
    m_hint->setText(axisHint(static_cast<model::SweepAxis>(m_axis->currentData().toInt())));
    m_error->clear();
}

void SweepDialog::accept()
{
    const QStringList values
        = m_values->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    if (values.isEmpty()) {
        m_error->setText(tr("Give at least one value."));
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
