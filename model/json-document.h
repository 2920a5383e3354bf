/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_JSON_DOCUMENT_H
#define INTELLIGENT_NETWORK_JSON_DOCUMENT_H

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief A parsed JSON file (nlohmann-json) that remembers the source line of every value.
 *
 * Lets the schedule and sweep-spec loaders report semantic errors (unknown city, empty clique,
 * wrong type) as `file:line: field 'rounds[1].cliques[0][2]': ...`. Syntax errors are reported
 * with the line of the offending byte.
 */
class JsonDocument
{
  public:
    /// Parse \p text, naming it \p file in errors. Throws InputError on a syntax error.
    static JsonDocument Parse(const std::string& file, const std::string& text);
    /// Read and parse \p path.
    static JsonDocument Load(const std::string& path);

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

  private:
    JsonDocument();

    std::string m_file;
    std::unique_ptr<nlohmann::json> m_root;
    std::map<std::string, std::size_t> m_lines;
};

} // namespace ns3

#endif
