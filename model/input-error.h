/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_INPUT_ERROR_H
#define INTELLIGENT_NETWORK_INPUT_ERROR_H

#include <cstddef>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Error in a user-supplied input file (topology, schedule, sweep spec).
 *
 * Carries the file, the 1-based line (0 when the error concerns the whole file) and the
 * field (column or JSON member) so that every loader reports bad input the same way:
 * `file:line: field 'name': message`.
 */
class InputError : public std::runtime_error
{
  public:
    InputError(const std::string& file,
               std::size_t line,
               const std::string& field,
               const std::string& message);

    const std::string& File() const;
    std::size_t Line() const;
    const std::string& Field() const;
    const std::string& Message() const;

  private:
    static std::string Format(const std::string& file,
                              std::size_t line,
                              const std::string& field,
                              const std::string& message);

    std::string m_file;
    std::size_t m_line;
    std::string m_field;
    std::string m_message;
};

} // namespace ns3

#endif
