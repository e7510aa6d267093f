// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "applicationicon.h"
#include "estimatesummaryview.h"
#include "plancanvasview.h"
#include "planestimatecontroller.h"
#include "planscene.h"

#include "model/catalog/catalogpaths.h"
#include "model/plan/planio.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ClusterPlanner"));
    QApplication::setOrganizationName(QStringLiteral("ClusterPlanner"));
    QApplication::setApplicationVersion(QStringLiteral(CP_VERSION));
    QApplication::setWindowIcon(cp::views::applicationIcon());
    // Matches the .desktop file's name, so a desktop shows the window under the launcher's icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.clusterplanner.ClusterPlanner"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Design GPU clusters and see what they will do."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("plan"),
                                 QStringLiteral("Plan file to open (default: a shipped sample)."));
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window, save it to FILE (PNG) and quit."),
        QStringLiteral("FILE"));
    parser.addOption(screenshot);
    QCommandLineOption size(QStringLiteral("size"),
                            QStringLiteral("Window size in pixels, WIDTHxHEIGHT (e.g. 1920x1080, "
                                           "1366x768), for --screenshot and the documentation's "
                                           "images."),
                            QStringLiteral("WxH"));
    parser.addOption(size);
    parser.process(app);
    QSize windowSize;
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        bool widthOk = false;
        bool heightOk = false;
        if (parts.size() == 2)
            windowSize = QSize(parts[0].toInt(&widthOk), parts[1].toInt(&heightOk));
        if (!widthOk || !heightOk || windowSize.width() < 320 || windowSize.height() < 240
            || windowSize.width() > 16384 || windowSize.height() > 16384) {
            std::fprintf(stderr,
                         "clusterplanner: --size %s: give WIDTHxHEIGHT in pixels, "
                         "from 320x240 to 16384x16384, e.g. 1920x1080\n",
                         qPrintable(parser.value(size)));
            return 2;
        }
    }

    std::shared_ptr<const cp::model::Catalog> catalog;
    std::string catalogNotice;
    try {
        catalog = std::make_shared<const cp::model::Catalog>(
            cp::model::openUserCatalog(cp::model::defaultDatabasePath(),
                                       cp::model::shippedCatalogDirectory(), &catalogNotice));
    } catch (const std::exception &error) {
        QMessageBox::critical(
            nullptr, QStringLiteral("ClusterPlanner"),
            QStringLiteral(
                "The hardware catalog could not be loaded:\n%1\n\nRemove or fix the file named "
                "above; the shipped catalog is in %2.")
                .arg(QString::fromStdString(error.what()),
                     QString::fromStdString(cp::model::shippedCatalogDirectory())));
        return 1;
    }

    // The user's database could not be opened: the program runs on the shipped catalog.
    if (!catalogNotice.empty() && !parser.isSet(screenshot))
        QMessageBox::warning(nullptr, QStringLiteral("ClusterPlanner"),
                             QString::fromStdString(catalogNotice));

    cp::app::MainWindow window(catalog);
    QString plan = parser.positionalArguments().value(0);
    if (plan.isEmpty()) {
        const QDir samples(QString::fromStdString(cp::model::shippedSamplesDirectory()));
        const QStringList files = samples.entryList({QStringLiteral("h100*.json")});
        if (!files.isEmpty())
            plan = samples.filePath(files.first());
    }
    if (windowSize.isValid())
        window.resize(windowSize);
    // A screenshot of a plan that does not open would be an empty window saved as if it were
    // the plan: said on stderr with the loader's reason, exit 1, as the command line does.
    if (!plan.isEmpty() && parser.isSet(screenshot)) {
        try {
            (void)cp::model::loadPlan(plan.toStdString(), catalog.get());
        } catch (const std::exception &error) {
            std::fprintf(stderr, "clusterplanner: %s\n", error.what());
            return 1;
        }
    }
    if (!plan.isEmpty())
        window.openPlan(plan);
    window.show();
    if (!parser.isSet(screenshot))
        QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });

    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        QTimer::singleShot(0, &window, [&window, file] {
            window.canvas()->fitAll();
            QApplication::processEvents();
            window.finishEstimate();
            window.scene()->waitForFabricSummary();
            QApplication::processEvents();
            const bool saved = window.grab().save(file);
            QApplication::exit(saved ? 0 : 1);
        });
    }
    return app.exec();
}
