// Compare graphs.
#include "panels/graph_compare_panel.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>

#include "canvas/graph_canvas.h"
#include "io/loader.h"
#include "panels/pass_stepper.h"
#include "panels/summary_row.h"
#include "panels/twin_canvases.h"

namespace flowscope {
namespace {

using Outcome = Expected<std::shared_ptr<const GraphComparePanel::Result>>;

std::vector<std::pair<size_t, QColor>> colorsFor(const Graph& g, const std::vector<std::string>& names,
                                                 const QColor& color) {
  std::vector<std::pair<size_t, QColor>> out;
  for (const auto& n : names)
    if (int64_t i = g.find(n); i >= 0) out.emplace_back(static_cast<size_t>(i), color);
  return out;
}

QString kindsText(const NodeChange& c) {
  QStringList kinds;
  for (const auto& k : c.kinds) kinds << QString::fromStdString(k);
  return kinds.join(", ");
}

}  // namespace

GraphComparePanel::GraphComparePanel(Session* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_summary(
          new QLabel(tr("Compare the opened graph with another: an earlier version, its optimized form, or the same "
                        "model written by another tool"),
                     this)),
      m_list(new QListWidget(this)),
      m_before(new GraphCanvas(this, &session->worker())),
      m_after(new GraphCanvas(this, &session->worker())) {
  m_summary->setWordWrap(true);
  auto* choose = new QPushButton(tr("Compare with..."), this);
  connect(choose, &QPushButton::clicked, this, &GraphComparePanel::compareRequested);
  layOutTwinCanvases(this, summaryRow(this, m_summary, choose), m_list, 320, m_before, m_after);
  connect(m_list, &QListWidget::currentRowChanged, this, &GraphComparePanel::selectRow);
  // Layout is asynchronous: a row chosen before a canvas has its scene is selected once it has.
  for (GraphCanvas* canvas : {m_before, m_after})
    connect(canvas, &GraphCanvas::sceneReady, this, [this] { selectRow(m_list->currentRow()); });
}

QString GraphComparePanel::summary() const { return m_summary->text(); }

void GraphComparePanel::compareWith(const QString& path) {
  auto model = m_session->model();
  if (!model) return emit failed(tr("open a graph first, then compare it with another"));
  m_summary->setText(tr("Comparing with %1...").arg(path));
  m_session->worker().submit<Outcome>(
      "compare-graphs", tr("Comparing with %1").arg(QFileInfo(path).fileName()), this,
      [model, path](JobControl&) -> Outcome {
        FS_ASSIGN_OR_RETURN(Model other, loadModel(path.toStdString()));
        auto result = std::make_shared<Result>();
        result->before = std::make_shared<const Graph>(model->graph);
        result->after = std::make_shared<const Graph>(std::move(other.graph));
        result->comparison = compareGraphs(*result->before, *result->after);
        result->afterPath = path;
        return std::shared_ptr<const Result>(std::move(result));
      },
      [this](Outcome outcome) {
        if (!outcome) {
          m_summary->setText(QString::fromStdString(outcome.status().message()));
          return emit failed(QString::fromStdString(outcome.status().message()));
        }
        show(std::move(outcome).value());
        emit finished();
      });
}

void GraphComparePanel::show(std::shared_ptr<const Result> result) {
  m_result = std::move(result);
  const Result& r = *m_result;
  const GraphComparison& c = r.comparison;
  m_before->setGraph(r.before);
  m_after->setGraph(r.after);
  m_before->setNodeColors(colorsFor(*r.before, c.removed, PassStepper::removedColor()));
  auto colors = colorsFor(*r.after, c.added, PassStepper::addedColor());
  std::vector<std::string> changed;
  for (const NodeChange& n : c.changed) changed.push_back(n.after);
  auto amber = colorsFor(*r.after, changed, PassStepper::changedColor());
  colors.insert(colors.end(), amber.begin(), amber.end());
  m_after->setNodeColors(std::move(colors));
  auto counts = c.counts();
  m_summary->setText(tr("%1: %2 matched (%3 by name, %4 by structure); %5 added, %6 removed (%7 fused), %8 renamed, "
                        "%9 changed (op %10, inputs %11, attributes %12, shapes %13, values %14)")
                         .arg(QFileInfo(r.afterPath).fileName())
                         .arg(c.matches.size())
                         .arg(c.matchedByName)
                         .arg(c.matchedByStructure)
                         .arg(counts["added"])
                         .arg(counts["removed"])
                         .arg(counts["fused"])
                         .arg(counts["renamed"])
                         .arg(counts["changed"])
                         .arg(counts["op"])
                         .arg(counts["inputs"])
                         .arg(counts["attrs"])
                         .arg(counts["shapes"])
                         .arg(counts["value"]));
  fillList(r);
}

void GraphComparePanel::fillList(const Result& r) {
  m_list->clear();
  m_rows.clear();
  const GraphComparison& c = r.comparison;
  auto add = [this](const QString& text, const QColor& color, std::string before, std::string after,
                    const QString& tip = {}) {
    auto* item = new QListWidgetItem(text, m_list);
    item->setForeground(color);
    item->setToolTip(tip);
    m_rows.emplace_back(std::move(before), std::move(after));
  };
  for (const auto& n : c.removed) {
    auto fused = c.fusedInto.find(n);
    if (fused == c.fusedInto.end()) {
      add("- " + QString::fromStdString(n), PassStepper::removedColor(), n, "");
      continue;
    }
    add("- " + QString::fromStdString(n) + tr(" (fused into %1)").arg(QString::fromStdString(fused->second)),
        PassStepper::removedColor(), n, fused->second);
  }
  for (const auto& n : c.added) add("+ " + QString::fromStdString(n), PassStepper::addedColor(), "", n);
  for (const auto& n : c.changed) {
    QStringList details;
    for (const auto& d : n.details) details << QString::fromStdString(d);
    add("~ " + QString::fromStdString(n.after) + " (" + kindsText(n) + ")", PassStepper::changedColor(), n.before,
        n.after, details.join("\n"));
  }
}

void GraphComparePanel::selectRow(int row) {
  if (!m_result || row < 0 || static_cast<size_t>(row) >= m_rows.size()) return;
  const auto& [before, after] = m_rows[static_cast<size_t>(row)];
  if (int64_t i = m_result->before->find(before); i >= 0) m_before->selectNode(static_cast<size_t>(i));
  if (int64_t i = m_result->after->find(after); i >= 0) m_after->selectNode(static_cast<size_t>(i));
}

}  // namespace flowscope
