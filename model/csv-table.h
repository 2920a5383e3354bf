/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_CSV_TABLE_H
#define INTELLIGENT_NETWORK_CSV_TABLE_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief A CSV table with a header row, remembering the source line of every row.
 *
 * Used by every tabular loader (DoubleZero sample files, the project's topology file) so that
 * missing columns, non-numeric fields and out-of-range values are reported as
 * `file:line: field 'column': ...` through InputError. Supports double-quoted cells, `#`
 * comment lines, blank lines and CRLF line ends. Files are UTF-8 (a byte-order mark is
 * skipped, see TextUtil::CheckEncoding); a cell holding a control character other than a tab
 * is an error.
 */
class CsvTable
{
  public:
    /// One data row: the 1-based line in the source file and its cells (trimmed, unquoted).
    struct Row
    {
        std::size_t line;
        std::vector<std::string> cells;
    };

    /// A numbered source line, as handed to FromLines().
    using NumberedLine = std::pair<std::size_t, std::string>;

    /// Read a whole file as one table (first non-comment line is the header).
    static CsvTable ReadFile(const std::string& path);

    /// Build a table from already-split lines of \p file (first non-comment line is the header).
    static CsvTable FromLines(const std::string& file, const std::vector<NumberedLine>& lines);

    /// Split one CSV line into trimmed, unquoted cells. Throws InputError on a bad quote.
    static std::vector<std::string> SplitLine(const std::string& file,
                                              std::size_t line,
                                              const std::string& text);

    const std::string& File() const;
    std::size_t HeaderLine() const;
    const std::vector<std::string>& Columns() const;
    const std::vector<Row>& Rows() const;

    bool HasColumn(const std::string& name) const;
    /// Index of column \p name; throws InputError naming the header line if it is absent.
    std::size_t RequireColumn(const std::string& name) const;

    /// The cell of \p row in column \p col; throws if the row has no such cell or it is empty.
    const std::string& Text(const Row& row, std::size_t col) const;
    /// The cell parsed as a finite number; throws InputError naming line and column otherwise.
    double Number(const Row& row, std::size_t col) const;
    /// A finite number strictly greater than zero.
    double PositiveNumber(const Row& row, std::size_t col) const;
    /// A finite number in [lo, hi]; the error names the range (in \p unit when given).
    double NumberInRange(const Row& row,
                         std::size_t col,
                         double lo,
                         double hi,
                         const std::string& unit = "") const;
    /// Throw InputError (header line, column name) for a column not among \p known.
    void RejectUnknownColumns(const std::vector<std::string>& known) const;

  private:
    std::string m_file;
    std::size_t m_headerLine = 0;
    std::vector<std::string> m_columns;
    std::vector<Row> m_rows;
};

} // namespace ns3

#endif
