// PassListModel: the optimizer's pass records as rows (#, pass, iteration, changed, nodes before -> after, ms, what it
// did), for the pass stepper.
#pragma once

#include "models/row_table_model.h"
#include "passes/pass_manager.h"

namespace flowscope {

struct PassRow {
  int number = 0;  ///< 1-based position in the pipeline, as `flowscope optimize` numbers passes
  PassRecord record;
};

class PassListModel : public RowTableModel<PassRow> {
 public:
  enum Column { kNumber, kPass, kIteration, kChanged, kNodes, kMilliseconds, kWhat, kColumns };
  explicit PassListModel(QObject* parent = nullptr) : RowTableModel(parent) {}
  /// Shows the records of a pipeline (null: none).
  void setPipeline(const PipelineResult* pipeline);

 protected:
  QVariant cell(const PassRow& row, int column, int role) const override;
  int columns() const override { return kColumns; }
  QString header(int column) const override;
};

}  // namespace flowscope
