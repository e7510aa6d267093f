// SPDX-License-Identifier: GPL-3.0-or-later
#include "propertyfields.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace cp::views {

namespace {

/** The least width a field asks for when it shows a sentence (a choice's name, a number's
 * "not set" text): the width a 1366-pixel screen's Properties dock gives a field on its own
 * row. Past it the text is cut (its tooltip has it), but the form never grows wider than the
 * dock. */
constexpr int widestLeastPixels = 220;

} // namespace

PropertyFields::PropertyFields(QFormLayout *layout, QWidget *parent, Commit commit)
    : m_layout(layout)
    , m_parent(parent)
    , m_commit(std::move(commit))
{ }

void PropertyFields::addRow(const QString &label, QWidget *field)
{
    // Wide enough for a number and its unit; a long number scrolls inside the field. A field
    // that shows a sentence instead (a choice's name, the "not set" text of a number) asks
    // for its whole width, up to a cap, and the form then puts it below its label.
    constexpr int narrowestFieldPixels = 90;
    auto *spinBox = qobject_cast<QAbstractSpinBox *>(field);
    if (spinBox && !spinBox->specialValueText().isEmpty()
        && spinBox->text() == spinBox->specialValueText())
        field->setMinimumWidth(std::min(field->sizeHint().width(), widestLeastPixels));
    else if (field->minimumWidth() == 0) // fitChoiceToItems sets a choice's
        field->setMinimumWidth(std::min(field->minimumSizeHint().width(), narrowestFieldPixels));
    m_layout->addRow(label, field);
}

void PropertyFields::fitChoiceToItems(QComboBox *combo)
{
    // The width the longest item needs, as the combo itself measures it, and what of it is
    // the frame and the arrow rather than text.
    const QComboBox::SizeAdjustPolicy policy = combo->sizeAdjustPolicy();
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const int wholeItemsPixels = combo->sizeHint().width();
    combo->setSizeAdjustPolicy(policy);
    const QFontMetrics metrics = combo->fontMetrics();
    int widestTextPixels = 0;
    for (int item = 0; item < combo->count(); ++item)
        widestTextPixels
            = std::max(widestTextPixels, metrics.horizontalAdvance(combo->itemText(item)));
    const int decorationPixels = std::max(0, wholeItemsPixels - widestTextPixels);
    // The chosen name whole (the form is rebuilt after each choice), up to widestLeastPixels.
    combo->setMinimumWidth(std::min(
        metrics.horizontalAdvance(combo->currentText()) + decorationPixels, widestLeastPixels));
    combo->view()->setMinimumWidth(wholeItemsPixels);
}

QSpinBox *PropertyFields::addInteger(const QString &label, std::optional<int> value, int minimum,
                                     int maximum, const QString &unsetText,
                                     std::function<void(model::Plan &, std::optional<int>)> set)
{
    auto *box = new QSpinBox(m_parent);
    const bool unsettable = !unsetText.isEmpty();
    const int unset = minimum - 1;
    box->setRange(unsettable ? unset : minimum, maximum);
    if (unsettable) {
        box->setSpecialValueText(unsetText);
        box->setToolTip(QObject::tr("Unset: %1").arg(unsetText));
    }
    box->setValue(value.value_or(unsettable ? unset : minimum));
    const int shown = box->value();
    QObject::connect(box, &QSpinBox::editingFinished, box, [=, commit = m_commit] {
        if (box->value() == shown)
            return; // focus left without a change
        const std::optional<int> chosen
            = unsettable && box->value() == unset ? std::nullopt : std::optional(box->value());
        commit(QObject::tr("Change %1").arg(label.toLower()),
               [&](model::Plan &plan) { set(plan, chosen); });
    });
    box->setObjectName(label); // found by its label in tests and accessibility tools
    addRow(label, box);
    return box;
}

QDoubleSpinBox *
PropertyFields::addNumber(const QString &label, std::optional<double> value, double minimum,
                          double maximum, int decimals, const QString &suffix,
                          const QString &unsetText,
                          std::function<void(model::Plan &, std::optional<double>)> set)
{
    auto *box = new QDoubleSpinBox(m_parent);
    const bool unsettable = !unsetText.isEmpty();
    box->setDecimals(decimals);
    box->setRange(unsettable ? 0.0 : minimum, maximum);
    if (unsettable)
        box->setSpecialValueText(unsetText);
    box->setSuffix(suffix);
    box->setValue(value.value_or(unsettable ? 0.0 : minimum));
    const double shown = box->value();
    QObject::connect(box, &QDoubleSpinBox::editingFinished, box, [=, commit = m_commit] {
        if (box->value() == shown)
            return;
        std::optional<double> chosen = box->value();
        if (unsettable && box->value() == 0.0)
            chosen.reset();
        commit(QObject::tr("Change %1").arg(label.toLower()),
               [&](model::Plan &plan) { set(plan, chosen); });
    });
    box->setObjectName(label); // found by its label in tests and accessibility tools
    addRow(label, box);
    return box;
}

QComboBox *PropertyFields::addChoice(const QString &label,
                                     const std::vector<std::pair<QString, QString>> &choices,
                                     const QString &current,
                                     std::function<void(model::Plan &, const QString &)> set)
{
    auto *combo = new QComboBox(m_parent);
    // Long names shrink to the form's width instead of widening the dock.
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    for (const auto &[text, value] : choices) {
        combo->addItem(text, value);
        combo->setItemData(combo->count() - 1, text, Qt::ToolTipRole);
    }
    combo->setCurrentIndex(std::max(0, combo->findData(current)));
    fitChoiceToItems(combo);
    // A name longer than the dock is still cut; the tooltip gives it whole.
    combo->setToolTip(combo->currentText());
    QObject::connect(combo, &QComboBox::currentIndexChanged, combo, [=, commit = m_commit] {
        const QString chosen = combo->currentData().toString();
        commit(QObject::tr("Change %1").arg(label.toLower()),
               [&](model::Plan &plan) { set(plan, chosen); });
    });
    combo->setObjectName(label);
    addRow(label, combo);
    return combo;
}

QLineEdit *PropertyFields::addText(const QString &label, const QString &value,
                                   const QString &placeholder,
                                   std::function<void(model::Plan &, const QString &)> set)
{
    auto *edit = new QLineEdit(value, m_parent);
    edit->setPlaceholderText(placeholder);
    edit->setCursorPosition(0);
    QObject::connect(edit, &QLineEdit::editingFinished, edit, [=, commit = m_commit] {
        if (edit->text() == value)
            return;
        const QString chosen = edit->text();
        commit(QObject::tr("Change %1").arg(label.toLower()),
               [&](model::Plan &plan) { set(plan, chosen); });
    });
    edit->setObjectName(label);
    addRow(label, edit);
    return edit;
}

std::optional<double> parseHumanCount(const QString &text)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*([0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\\s*([kKMBGT]?)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    double value = match.captured(1).toDouble();
    const QString suffix = match.captured(2);
    if (suffix.compare(QLatin1String("k"), Qt::CaseInsensitive) == 0)
        value *= 1e3;
    else if (suffix == QLatin1String("M"))
        value *= 1e6;
    else if (suffix == QLatin1String("B") || suffix == QLatin1String("G"))
        value *= 1e9;
    else if (suffix == QLatin1String("T"))
        value *= 1e12;
    if (!std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace cp::views
