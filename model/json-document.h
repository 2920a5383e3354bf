/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_JSON_DOCUMENT_H
#define INTELLIGENT_NETWORK_JSON_DOCUMENT_H

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief A parsed JSON file (nlohmann-json) that remembers the source line of every value.
 *
 * Lets the schedule loader (and any other JSON input) report semantic errors (unknown city,
 * empty clique, wrong type) as `file:line: field 'rounds[1].cliques[0][2]': ...`.
 *
 * The reader is strict, and linear in time and memory in the size of its input:
 * - syntax errors name the line of the offending byte and the field being read;
 * - a key that appears twice in one object is an error (nlohmann-json would keep the last);
 * - a number that does not fit a double (`1e999`) is an error naming its line and field;
 * - a string (or key) holding a control character (`\u0000` ... `\u001f`) is an error;
 * - nesting deeper than MaxDepth() objects and arrays is an error (a schedule needs 4);
 * - text that is not UTF-8 (UTF-16 or UTF-32 byte-order mark, a NUL byte, an ill-formed
 *   UTF-8 sequence) is an error naming the line; a UTF-8 byte-order mark is skipped.
 * Source lines are kept in a tree parallel to the JSON values (one entry per value), filled
 * while parsing from a single forward scan of the text.
 */
class JsonDocument
{
  public:
    /// Parse \p text, naming it \p file in errors. Throws InputError on bad input.
    static JsonDocument Parse(const std::string& file, const std::string& text);
    /// Read and parse \p path.
    static JsonDocument Load(const std::string& path);
    /// Deepest nesting of objects and arrays accepted.
    static constexpr std::size_t MaxDepth()
    {
        return 64;
    }

    JsonDocument(JsonDocument&&) noexcept;
    JsonDocument& operator=(JsonDocument&&) noexcept;
    ~JsonDocument();

    const std::string& File() const;
    const nlohmann::json& Root() const;

    /// 1-based line of the value at JSON pointer \p pointer (e.g. "/rounds/0"); the nearest
    /// enclosing value's line if the pointer does not exist.
    std::size_t LineOf(const std::string& pointer) const;
    /// Human-readable field name of a pointer: "/rounds/0/cliques/1" -> "rounds[0].cliques[1]".
    static std::string FieldName(const std::string& pointer);
    /// Throw InputError for the value at \p pointer.
    [[noreturn]] void Fail(const std::string& pointer, const std::string& message) const;

    struct LineNode; ///< Source line of one value and of its children (defined in the .cc).

  private:
    JsonDocument();

    std::string m_file;
    std::unique_ptr<nlohmann::json> m_root;
    std::unique_ptr<LineNode> m_lines;
};

} // namespace ns3

#endif
