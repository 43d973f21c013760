// What the picture tests read SVG with: libxml2 parses the text (so a
// document that is not well-formed XML fails the test) and XPath queries it,
// with the prefix "s" bound to the SVG namespace ("//s:rect"). Tests that
// include this link LibXml2::LibXml2.
#pragma once

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include <string>
#include <vector>

namespace mlusim::testing {

class SvgDocument {
 public:
  explicit SvgDocument(const std::string &text)
      : doc_(xmlReadMemory(text.data(), static_cast<int>(text.size()), "picture.svg", nullptr,
                           XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                               XML_PARSE_HUGE)) {
    if (doc_ == nullptr) return;
    context_ = xmlXPathNewContext(doc_);
    xmlXPathRegisterNs(context_, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
  }
  ~SvgDocument() {
    if (context_ != nullptr) xmlXPathFreeContext(context_);
    if (doc_ != nullptr) xmlFreeDoc(doc_);
  }
  SvgDocument(const SvgDocument &) = delete;
  SvgDocument &operator=(const SvgDocument &) = delete;

  bool well_formed() const { return doc_ != nullptr; }

  // The string value of every node `xpath` selects (an element's text, an
  // attribute's value), in document order.
  std::vector<std::string> values(const std::string &xpath) const {
    std::vector<std::string> out;
    if (context_ == nullptr) return out;
    xmlXPathObjectPtr found = xmlXPathEvalExpression(BAD_CAST xpath.c_str(), context_);
    if (found == nullptr) return out;
    if (found->nodesetval != nullptr)
      for (int i = 0; i < found->nodesetval->nodeNr; ++i) {
        xmlChar *text = xmlNodeGetContent(found->nodesetval->nodeTab[i]);
        out.emplace_back(text != nullptr ? reinterpret_cast<const char *>(text) : "");
        xmlFree(text);
      }
    xmlXPathFreeObject(found);
    return out;
  }
  size_t count(const std::string &xpath) const { return values(xpath).size(); }

 private:
  xmlDocPtr doc_;
  xmlXPathContextPtr context_ = nullptr;
};

}  // namespace mlusim::testing
