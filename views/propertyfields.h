// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"

#include <QString>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace cp::views {

/**
 * Adds the rows of a Properties form, each bound to one field of the plan: the widget shows the
 * plan's value, and finishing an edit hands a change of the plan to `commit` (which validates it
 * and records it as one undoable edit). Ranges are the plan loader's, so what a user can type is
 * what a file may hold; "unset" values (searched, none, the preset's) are a special value.
 */
/// The widgets' slots keep their own copy of `commit`: the fields object may be a temporary.
class PropertyFields
{
public:
    using Change = std::function<void(model::Plan &)>;
    using Commit = std::function<void(const QString &undoText, const Change &change)>;

    PropertyFields(QFormLayout *layout, QWidget *parent, Commit commit);

    /** An integer; `unsetText` non-empty: the minimum - 1 reads as that and means unset. */
    QSpinBox *addInteger(const QString &label, std::optional<int> value, int minimum, int maximum,
                         const QString &unsetText,
                         std::function<void(model::Plan &, std::optional<int>)> set);
    /** A number; `unsetText` non-empty: 0 reads as that and means unset. */
    QDoubleSpinBox *addNumber(const QString &label, std::optional<double> value, double minimum,
                              double maximum, int decimals, const QString &suffix,
                              const QString &unsetText,
                              std::function<void(model::Plan &, std::optional<double>)> set);
    /** One of (text, value) choices; the value is handed to `set`. */
    QComboBox *addChoice(const QString &label,
                         const std::vector<std::pair<QString, QString>> &choices,
                         const QString &current,
                         std::function<void(model::Plan &, const QString &)> set);
    /** Free text, handed over when editing finishes. */
    QLineEdit *addText(const QString &label, const QString &value, const QString &placeholder,
                       std::function<void(model::Plan &, const QString &)> set);

    /**
     * Sizes a choice for a narrow form: its drop-down list as wide as its longest item, and
     * its least width its chosen item's (up to a cap), so that in a form that wraps long rows
     * a choice whose name does not fit beside its label moves below it and shows it whole
     * instead of cutting it to a few letters. Call it once the current item is set.
     */
    static void fitChoiceToItems(QComboBox *combo);

private:
    /** Adds the row; the field may narrow to the dock's width (its own text then scrolls
     * inside it) instead of pushing its right edge, arrows and drop-down out of view. */
    void addRow(const QString &label, QWidget *field);

    QFormLayout *m_layout;
    QWidget *m_parent;
    Commit m_commit;
};

/** "2T", "2000B", "1.5e12", "300 M" to a count; nullopt for anything else. */
std::optional<double> parseHumanCount(const QString &text);

} // namespace cp::views
