/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "csv-table.h"

#include "input-error.h"
#include "text-util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ns3
{

std::vector<std::string>
CsvTable::SplitLine(const std::string& file, std::size_t line, const std::string& text)
{
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    bool wasQuoted = false;
    for (std::size_t i = 0; i < text.size(); ++i)
    {
        char c = text[i];
        if (quoted)
        {
            if (c == '"')
            {
                if (i + 1 < text.size() && text[i + 1] == '"')
                {
                    cell += '"';
                    ++i;
                }
                else
                {
                    quoted = false;
                }
            }
            else
            {
                cell += c;
            }
        }
        else if (c == '"')
        {
            if (!TextUtil::Trim(cell).empty())
            {
                throw InputError(file, line, "", "quote in the middle of an unquoted cell");
            }
            cell.clear();
            quoted = true;
            wasQuoted = true;
        }
        else if (c == ',')
        {
            cells.push_back(wasQuoted ? cell : TextUtil::Trim(cell));
            cell.clear();
            wasQuoted = false;
        }
        else
        {
            cell += c;
        }
    }
    if (quoted)
    {
        throw InputError(file, line, "", "unterminated quoted cell");
    }
    cells.push_back(wasQuoted ? cell : TextUtil::Trim(cell));
    return cells;
}

CsvTable
CsvTable::ReadFile(const std::string& path)
{
    return FromLines(path, TextUtil::ReadNumberedLines(path));
}

CsvTable
CsvTable::FromLines(const std::string& file, const std::vector<NumberedLine>& lines)
{
    CsvTable table;
    table.m_file = file;
    bool haveHeader = false;
    for (const auto& [number, raw] : lines)
    {
        std::string text = TextUtil::Trim(raw);
        if (text.empty() || text[0] == '#')
        {
            continue;
        }
        std::vector<std::string> cells = SplitLine(file, number, text);
        for (std::size_t i = 0; i < cells.size(); ++i)
        {
            for (char c : cells[i])
            {
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
                {
                    char code[8];
                    std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(c));
                    std::string column = haveHeader && i < table.m_columns.size()
                                             ? table.m_columns[i]
                                             : "column " + std::to_string(i + 1);
                    throw InputError(file, number, column,
                                     std::string("control character U+") + code + " in the cell");
                }
            }
        }
        if (!haveHeader)
        {
            for (std::size_t i = 0; i < cells.size(); ++i)
            {
                if (cells[i].empty())
                {
                    throw InputError(file,
                                     number,
                                     "column " + std::to_string(i + 1),
                                     "empty column name in header");
                }
                for (std::size_t j = 0; j < i; ++j)
                {
                    if (cells[j] == cells[i])
                    {
                        throw InputError(file, number, cells[i], "duplicate column in header");
                    }
                }
            }
            table.m_columns = cells;
            table.m_headerLine = number;
            haveHeader = true;
            continue;
        }
        if (cells.size() > table.m_columns.size())
        {
            throw InputError(file,
                             number,
                             "",
                             "row has " + std::to_string(cells.size()) + " fields but the header has " +
                                 std::to_string(table.m_columns.size()));
        }
        table.m_rows.push_back(Row{number, cells});
    }
    if (!haveHeader)
    {
        throw InputError(file, 0, "", "no header row (the table is empty)");
    }
    return table;
}

const std::string&
CsvTable::File() const
{
    return m_file;
}

std::size_t
CsvTable::HeaderLine() const
{
    return m_headerLine;
}

const std::vector<std::string>&
CsvTable::Columns() const
{
    return m_columns;
}

const std::vector<CsvTable::Row>&
CsvTable::Rows() const
{
    return m_rows;
}

bool
CsvTable::HasColumn(const std::string& name) const
{
    for (const auto& c : m_columns)
    {
        if (c == name)
        {
            return true;
        }
    }
    return false;
}

std::size_t
CsvTable::RequireColumn(const std::string& name) const
{
    for (std::size_t i = 0; i < m_columns.size(); ++i)
    {
        if (m_columns[i] == name)
        {
            return i;
        }
    }
    throw InputError(m_file, m_headerLine, name, "missing column");
}

const std::string&
CsvTable::Text(const Row& row, std::size_t col) const
{
    if (col >= row.cells.size() || row.cells[col].empty())
    {
        throw InputError(m_file, row.line, m_columns.at(col), "missing value");
    }
    return row.cells[col];
}

namespace
{

/// Parse \p text as a decimal number ([sign] digits [. digits] [e [sign] digits]): no hex,
/// no "inf" or "nan". An overflow gives +-inf and an underflow 0, for the caller's range
/// check. False if the text is not such a number.
bool
ParseDecimal(const std::string& text, double& value)
{
    std::string t = TextUtil::Trim(text);
    if (t.empty() || t.find_first_not_of("0123456789+-.eE") != std::string::npos)
    {
        return false;
    }
    char* end = nullptr;
    value = std::strtod(t.c_str(), &end);
    return end == t.c_str() + t.size() && !std::isnan(value);
}

} // namespace

double
CsvTable::Number(const Row& row, std::size_t col) const
{
    const std::string& text = Text(row, col);
    double value = 0;
    if (!ParseDecimal(text, value))
    {
        throw InputError(m_file, row.line, m_columns.at(col), "'" + text + "' is not a number");
    }
    if (!std::isfinite(value))
    {
        throw InputError(m_file, row.line, m_columns.at(col),
                         "'" + text + "' is out of range (not a finite number)");
    }
    return value;
}

double
CsvTable::PositiveNumber(const Row& row, std::size_t col) const
{
    double value = Number(row, col);
    if (!(value > 0))
    {
        throw InputError(m_file,
                         row.line,
                         m_columns.at(col),
                         "must be greater than zero, got " + Text(row, col));
    }
    return value;
}

double
CsvTable::NumberInRange(const Row& row,
                        std::size_t col,
                        double lo,
                        double hi,
                        const std::string& unit) const
{
    const std::string& text = Text(row, col);
    double value = 0;
    if (!ParseDecimal(text, value))
    {
        throw InputError(m_file, row.line, m_columns.at(col), "'" + text + "' is not a number");
    }
    // Overflows (1e999 is +inf here) and underflows fail the range check with its bounds.
    if (!(value >= lo && value <= hi))
    {
        std::ostringstream os;
        os << "must be between " << lo << " and " << hi << (unit.empty() ? "" : " " + unit)
           << ", got " << TextUtil::Trim(text);
        throw InputError(m_file, row.line, m_columns.at(col), os.str());
    }
    return value;
}

void
CsvTable::RejectUnknownColumns(const std::vector<std::string>& known) const
{
    for (const auto& c : m_columns)
    {
        if (std::find(known.begin(), known.end(), c) == known.end())
        {
            std::string list;
            for (const auto& k : known)
            {
                list += (list.empty() ? "" : ", ") + k;
            }
            throw InputError(m_file, m_headerLine, c, "unknown column (expected " + list + ")");
        }
    }
}

} // namespace ns3
