// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "estimatesummaryview.h"
#include "planestimatecontroller.h"

#include "model/catalogpaths.h"
#include "model/planio.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace cp::app {

MainWindow::MainWindow(std::shared_ptr<const model::Catalog> catalog, QWidget *parent)
    : QMainWindow(parent)
    , m_catalog(std::move(catalog))
    , m_summary(new views::EstimateSummaryView(this))
    , m_controller(new views::PlanEstimateController(this))
{
    setWindowTitle(tr("ClusterPlanner"));
    setCentralWidget(m_summary);
    m_controller->setCatalog(m_catalog);
    connect(m_controller, &views::PlanEstimateController::estimateStarted, this, [this] {
        m_summary->showPending(tr("Estimating %1…").arg(QString::fromStdString(m_plan.name)));
        statusBar()->showMessage(tr("Estimating…"));
    });
    connect(m_controller, &views::PlanEstimateController::estimateReady, this,
            [this](const model::PlanEstimate &estimate) {
                m_summary->showEstimate(estimate);
                statusBar()->showMessage(tr("Estimate up to date"), 5000);
            });
    connect(m_controller, &views::PlanEstimateController::estimateFailed, this,
            [this](const QString &message) {
                m_summary->showError(message);
                statusBar()->showMessage(tr("Estimate failed"));
            });
    createMenus();
    resize(1100, 760);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openPlanDialog);
    QMenu *samples = file->addMenu(tr("Open &Sample"));
    const QDir dir(QString::fromStdString(model::shippedSamplesDirectory()));
    for (const QFileInfo &info :
         dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString path = info.absoluteFilePath();
        samples->addAction(info.completeBaseName(), this, [this, path] { openPlan(path); });
    }
    samples->setEnabled(!samples->isEmpty());
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);
}

void MainWindow::openPlanDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open plan"), QString::fromStdString(model::shippedSamplesDirectory()),
        tr("ClusterPlanner plans (*.json)"));
    if (!path.isEmpty())
        openPlan(path);
}

bool MainWindow::openPlan(const QString &path)
{
    try {
        m_plan = model::loadPlan(path.toStdString(), m_catalog.get());
    } catch (const std::exception &error) {
        // Non-blocking: the message box is window-modal, the old plan stays open.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open plan"),
                                    tr("The plan could not be opened:\n%1\n\nFix the field named "
                                       "above and open the file again.")
                                        .arg(QString::fromStdString(error.what())),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setWindowModality(Qt::WindowModal);
        box->show();
        return false;
    }
    m_planPath = path;
    setWindowTitle(tr("%1 — ClusterPlanner").arg(QString::fromStdString(m_plan.name)));
    m_controller->requestEstimate(m_plan);
    return true;
}

} // namespace cp::app
