/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "input-error.h"

#include <sstream>

namespace ns3
{

InputError::InputError(const std::string& file,
                       std::size_t line,
                       const std::string& field,
                       const std::string& message)
    : std::runtime_error(Format(file, line, field, message)),
      m_file(file),
      m_line(line),
      m_field(field),
      m_message(message)
{
}

std::string
InputError::Format(const std::string& file,
                   std::size_t line,
                   const std::string& field,
                   const std::string& message)
{
    std::ostringstream os;
    os << file;
    if (line > 0)
    {
        os << ":" << line;
    }
    os << ":";
    if (!field.empty())
    {
        os << " field '" << field << "':";
    }
    os << " " << message;
    return os.str();
}

const std::string&
InputError::File() const
{
    return m_file;
}

std::size_t
InputError::Line() const
{
    return m_line;
}

const std::string&
InputError::Field() const
{
    return m_field;
}

const std::string&
InputError::Message() const
{
    return m_message;
}

} // namespace ns3
