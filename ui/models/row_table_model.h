// RowTableModel: the one base of the app's table models. It holds rows of one type; a subclass says what a cell shows
// (cell), how many columns there are (columns) and what their headers say (header): three hooks, nothing else.
#pragma once

#include <QAbstractTableModel>
#include <vector>

namespace flowscope {

template <typename Row>
class RowTableModel : public QAbstractTableModel {
 public:
  using QAbstractTableModel::QAbstractTableModel;

  void setRows(std::vector<Row> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
  }
  const std::vector<Row>& rows() const { return m_rows; }
  const Row& row(int index) const { return m_rows[static_cast<size_t>(index)]; }

  int rowCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
  }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : columns(); }
  QVariant data(const QModelIndex& index, int role) const override {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    return cell(m_rows[static_cast<size_t>(index.row())], index.column(), role);
  }
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columns()) return {};
    return header(section);
  }

 protected:
  virtual QVariant cell(const Row& row, int column, int role) const = 0;
  virtual int columns() const = 0;
  virtual QString header(int column) const = 0;

 private:
  std::vector<Row> m_rows;
};

}  // namespace flowscope
