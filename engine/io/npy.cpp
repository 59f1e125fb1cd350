// .npy reading and writing.
#include "io/npy.h"

#include <charconv>
#include <cstring>
#include <regex>

#include "base/atomic_file.h"
#include "io/source.h"

namespace flowscope {
namespace {

struct NpyType {
  const char* descr;
  DType dtype;
};

constexpr NpyType kTypes[] = {{"<f4", DType::kFloat}, {"<f8", DType::kDouble}, {"<i4", DType::kInt32},
                              {"<i8", DType::kInt64}, {"|u1", DType::kUInt8},  {"|i1", DType::kInt8},
                              {"<i2", DType::kInt16}, {"<u2", DType::kUInt16}, {"|b1", DType::kBool},
                              {"<f2", DType::kHalf},  {"<u4", DType::kUInt32}, {"<u8", DType::kUInt64}};

// NumPy's own default limit on a header (numpy.load's max_header_size): real headers are about a hundred bytes.
constexpr size_t kMaxHeaderBytes = 10000;

}  // namespace

Expected<Tensor> readNpy(const std::string& path) {
  FS_ASSIGN_OR_RETURN(std::string data, readFile(path));
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0)
    return invalidArgument(path + ": not a .npy file (bad magic)");
  const int major = static_cast<unsigned char>(data[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(data[8]) | static_cast<size_t>(static_cast<unsigned char>(data[9])) << 8;
    offset = 10;
  } else {
    if (data.size() < 12) return invalidArgument(path + ": truncated .npy header");
    uint32_t len;
    std::memcpy(&len, data.data() + 8, 4);
    headerLen = len;
    offset = 12;
  }
  if (headerLen > kMaxHeaderBytes)
    return invalidArgument(path + ": .npy header is " + std::to_string(headerLen) + " bytes, more than the " +
                           std::to_string(kMaxHeaderBytes) + " NumPy reads by default");
  if (offset + headerLen > data.size()) return invalidArgument(path + ": truncated .npy header");
  std::string header = data.substr(offset, headerLen);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'descr':\\s*'([^']+)'")))
    return invalidArgument(path + ": header has no descr");
  std::string descr = m[1];
  if (descr == "=f4") descr = "<f4";
  if (std::regex_search(header, std::regex("'fortran_order':\\s*True")))
    return unimplemented(path + ": Fortran-ordered arrays are not supported; save with np.ascontiguousarray");
  if (!std::regex_search(header, m, std::regex("'shape':\\s*\\(([^)]*)\\)")))
    return invalidArgument(path + ": header has no shape");
  std::vector<int64_t> dims;
  std::string shapeText = m[1];
  const std::regex number("\\d+");
  for (std::sregex_iterator it(shapeText.begin(), shapeText.end(), number), end; it != end; ++it) {
    const std::string digits = it->str();
    int64_t dim = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), dim).ec != std::errc())
      return invalidArgument(path + ": shape dimension " + digits.substr(0, 30) + " is out of range");
    dims.push_back(dim);
  }
  DType dtype = DType::kInvalid;
  for (const auto& t : kTypes)
    if (descr == t.descr) dtype = t.dtype;
  if (dtype == DType::kInvalid) return unimplemented(path + ": unsupported .npy dtype '" + descr + "'");
  Shape shape(dims);
  FS_ASSIGN_OR_RETURN(size_t bytes, Tensor::checkedByteSize(dtype, shape, data.size()));
  size_t body = offset + headerLen;
  if (data.size() - body != bytes)
    return invalidArgument(path + ": holds " + std::to_string(data.size() - body) + " data bytes, shape " +
                           shape.toString() + " needs " + std::to_string(bytes));
  Tensor t = Tensor::uninitialized(dtype, shape);
  std::memcpy(t.mutableBytes().data(), data.data() + body, bytes);
  return t;
}

Status writeNpy(const std::string& path, const Tensor& tensor) {
  const char* descr = nullptr;
  for (const auto& t : kTypes)
    if (t.dtype == tensor.dtype()) descr = t.descr;
  if (!descr)
    return unimplemented(path + ": cannot write dtype " + std::string(dtypeName(tensor.dtype())) + " as .npy");
  std::string shape = "(";
  for (int64_t d : tensor.shape().dims()) shape += std::to_string(d) + ", ";
  if (tensor.shape().rank() > 1)
    shape.erase(shape.size() - 2);  // "(2, 3, " -> "(2, 3"
  else if (tensor.shape().rank() == 1)
    shape.erase(shape.size() - 1);  // "(3, " -> "(3,"
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  auto bytes = tensor.bytes();
  out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return writeFileAtomically(path, out);
}

}  // namespace flowscope
