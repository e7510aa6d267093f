// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/scenarios.h"

#include <QDialog>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;

namespace cp::views {

/**
 * Asks for a sweep axis and its values ("2048, 4096, 8192"); OK applies it through the given
 * function and stays open with the reason shown when it fails.
 */
class SweepDialog : public QDialog
{
    Q_OBJECT

public:
    using Apply = std::function<QString(model::SweepAxis, const QStringList &)>;
    explicit SweepDialog(QWidget *parent = nullptr);
    void setApply(Apply apply) { m_apply = std::move(apply); }

    QComboBox *axisBox() const { return m_axis; }
    QLineEdit *valuesEdit() const { return m_values; }
    QString errorText() const;
    void accept() override;

private:
    void updateHint();

    QComboBox *m_axis;
    QLineEdit *m_values;
    QLabel *m_hint;
    QLabel *m_error;
    Apply m_apply;
};

} // namespace cp::views
