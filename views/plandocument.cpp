// SPDX-License-Identifier: GPL-3.0-or-later
#include "plandocument.h"

#include "planeditcommand.h"

#include "model/planio.h"

namespace cp::views {

PlanDocument::PlanDocument(QObject *parent)
    : QObject(parent)
{
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, &PlanDocument::fileChanged);
}

void PlanDocument::reset(const model::Plan &plan, const QString &filePath)
{
    m_undoStack.clear();
    m_plan = plan;
    m_filePath = filePath;
    m_undoStack.setClean();
    emit planChanged();
    emit fileChanged();
}

void PlanDocument::edit(const model::Plan &changed, const QString &text, int mergeKey)
{
    m_undoStack.push(new PlanEditCommand(this, m_plan, changed, text, mergeKey));
}

void PlanDocument::save(const QString &path)
{
    model::savePlan(m_plan, path.toStdString());
    m_filePath = path;
    m_undoStack.setClean();
    emit fileChanged();
}

void PlanDocument::setPlan(const model::Plan &plan)
{
    m_plan = plan;
    emit planChanged();
}

} // namespace cp::views
