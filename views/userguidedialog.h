// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QTextBrowser;

namespace cp::views {

/**
 * Shows docs/user-guide.md (Markdown, rendered by QTextDocument) inside the program, so help
 * works without a browser and offline. Links to other documents open in the same window.
 */
class UserGuideDialog : public QDialog
{
    Q_OBJECT

public:
    /** `guidePath`: the Markdown file; a missing file is shown as a message naming where it was
     * looked for. */
    explicit UserGuideDialog(const QString &guidePath, QWidget *parent = nullptr);

    QTextBrowser *browser() const { return m_browser; }
    bool loaded() const { return m_loaded; }

private:
    QTextBrowser *m_browser;
    bool m_loaded = false;
};

} // namespace cp::views
