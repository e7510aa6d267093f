// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fabriclegend.h"
#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/planning/scenariocomparison.h"

#include <QList>
#include <QPicture>

#include "model/planning/datahall.h"
#include <QString>

#include <memory>
#include <stdexcept>

namespace cp::views {

/** A report could not be written; the message names the file and the reason. */
class ReportError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/**
 * Everything a PDF report shows, prepared on the GUI thread: the figures come from the
 * comparison (model), the topology picture and the charts are recorded as vector QPictures
 * from the canvas scene and comparisonCharts(), so writing the PDF itself needs no widgets and
 * can run on a worker thread.
 */
struct PlanReportInput
{
    model::Plan documentPlan;
    model::ScenarioComparison comparison;
    std::shared_ptr<const model::Catalog> catalog;
    QString sourceName; ///< the plan file, for the title page
    QPicture topology;
    QSizeF topologySize;
    QPicture fabric; ///< the Fabric view's drawing of the baseline's generated fabric
    QSizeF fabricSize; ///< empty when the baseline has no fabric to draw
    QString fabricCaption; ///< what the drawing's colours mean, or why it has none
    FabricLegend fabricLegend; ///< the heat scale and rail colours under the drawing
    QPicture dataHall; ///< the Data Hall view's floor plan of the baseline, coloured by power
    QSizeF dataHallSize; ///< empty when the baseline has no cabinets
    std::shared_ptr<const model::DataHall> hall; ///< its cabinets, for the page's table
    QList<QPicture> charts;
    QStringList chartTitles;
};

/** Renders the baseline's canvas and the comparison charts (GUI thread: uses QGraphicsScene). */
PlanReportInput preparePlanReport(const model::Plan &documentPlan,
                                  const model::ScenarioComparison &comparison,
                                  std::shared_ptr<const model::Catalog> catalog,
                                  const QString &sourceName);

/**
 * Writes the PDF: title page with key figures, plan summary, bill of materials, topology
 * picture, fabric page (drawing, tier table, worst single failure), comparison table, charts,
 * assumptions and catalog sources. Written to a QSaveFile, so a failed export leaves no
 * half-written file and an existing file untouched. Returns the number of pages; throws
 * ReportError.
 */
int writePlanReportPdf(const PlanReportInput &input, const QString &path);

} // namespace cp::views
