// SPDX-License-Identifier: GPL-3.0-or-later
#include "userguidedialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace cp::views {

UserGuideDialog::UserGuideDialog(const QString &guidePath, QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setWindowTitle(tr("ClusterPlanner User Guide"));
    resize(820, 720);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_browser->setOpenExternalLinks(true);
    m_browser->setSearchPaths({QFileInfo(guidePath).absolutePath()});
    QFile file(guidePath);
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        m_browser->setMarkdown(QString::fromUtf8(file.readAll()));
        m_loaded = true;
    } else {
        m_browser->setMarkdown(
            tr("# The user guide is missing\n\nIt was looked for at `%1` (%2). Reinstall the "
               "package, or read `docs/user-guide.md` in the source tree.")
                .arg(QFileInfo(guidePath).absoluteFilePath(), file.errorString()));
    }
}

} // namespace cp::views
