// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/scenarios.h"

#include <QDialog>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace cp::views {

/**
 * Asks for a sweep axis and its values ("2048, 4096, 8192"), or for a catalog axis (GPU type,
 * NIC) ticks in a list of the catalog's entries by name; OK applies it through the given
 * function and stays open with the reason shown when it fails.
 */
class SweepDialog : public QDialog
{
    Q_OBJECT

public:
    using Apply = std::function<QString(model::SweepAxis, const QStringList &)>;
    explicit SweepDialog(QWidget *parent = nullptr);
    void setApply(Apply apply) { m_apply = std::move(apply); }
    /** The catalog entries an axis chooses from, as (id, name): the GPUs, the NICs. An axis
     * with choices shows them as a list to tick instead of a line to type ids into. */
    void setChoices(model::SweepAxis axis,
                    const std::vector<std::pair<std::string, std::string>> &choices);

    QComboBox *axisBox() const { return m_axis; }
    QLineEdit *valuesEdit() const { return m_values; }
    QListWidget *choiceList() const { return m_choiceList; }
    QString errorText() const;
    void accept() override;

private:
    void updateHint();

    QComboBox *m_axis;
    QLineEdit *m_values;
    QListWidget *m_choiceList;
    std::map<model::SweepAxis, std::vector<std::pair<std::string, std::string>>> m_choices;
    QLabel *m_hint;
    QLabel *m_error;
    Apply m_apply;
};

} // namespace cp::views
