/* pysym: node kinds of tree-sitter-python as small integers.
 *
 * Comparing type strings on every node of every file costs more than the
 * matching itself; pysym maps each named grammar symbol to a PySym once
 * (every symbol id whose name matches, so aliases are covered) and then
 * classifies a node with one table load. Thread-safe after the first call. */
#ifndef ASC_PYSYM_H
#define ASC_PYSYM_H

#include <tree_sitter/api.h>

#define PYSYM_NAMES(X)                                                                           \
  X(ARGUMENT_LIST, "argument_list") X(ASSERT_STATEMENT, "assert_statement") X(ASSIGNMENT, "assignment") X(ATTRIBUTE, "attribute")        \
  X(BINARY_OPERATOR, "binary_operator") X(BLOCK, "block") X(CALL, "call")                       \
  X(CLASS_DEFINITION, "class_definition") X(COMMENT, "comment")                                  \
  X(COMPARISON_OPERATOR, "comparison_operator") X(CONCATENATED_STRING, "concatenated_string")     \
  X(CONDITIONAL_EXPRESSION, "conditional_expression") X(DECORATED_DEFINITION, "decorated_definition") \
  X(DECORATOR, "decorator") X(DEFAULT_PARAMETER, "default_parameter") X(DICTIONARY, "dictionary") \
  X(DOTTED_NAME, "dotted_name") X(ELIF_CLAUSE, "elif_clause") X(ELSE_CLAUSE, "else_clause")       \
  X(EXCEPT_CLAUSE, "except_clause") X(EXPRESSION_STATEMENT, "expression_statement")               \
  X(FINALLY_CLAUSE, "finally_clause") X(FOR_STATEMENT, "for_statement")                          \
  X(FUNCTION_DEFINITION, "function_definition") X(FUTURE_IMPORT_STATEMENT, "future_import_statement") \
  X(IDENTIFIER, "identifier") X(IF_STATEMENT, "if_statement") X(IMPORT_FROM_STATEMENT, "import_from_statement") \
  X(IMPORT_STATEMENT, "import_statement") X(INTEGER, "integer") X(KEYWORD_ARGUMENT, "keyword_argument") \
  X(MATCH_STATEMENT, "match_statement") X(MODULE, "module") X(PAIR, "pair")                      \
  X(PARENTHESIZED_EXPRESSION, "parenthesized_expression") X(STRING, "string")                    \
  X(SUBSCRIPT, "subscript") X(TRY_STATEMENT, "try_statement")                                    \
  X(TYPED_DEFAULT_PARAMETER, "typed_default_parameter") X(WHILE_STATEMENT, "while_statement")     \
  X(WITH_STATEMENT, "with_statement") X(CASE_CLAUSE, "case_clause") X(TUPLE, "tuple") X(LIST, "list")        \
  X(SET, "set") X(TYPE, "type") X(PATTERN_LIST, "pattern_list") X(TUPLE_PATTERN, "tuple_pattern")  \
  X(LIST_PATTERN, "list_pattern")

typedef enum {
  PYSYM_OTHER = 0,
#define PYSYM__ENUM(id, name) PYSYM_##id,
  PYSYM_NAMES(PYSYM__ENUM)
#undef PYSYM__ENUM
  PYSYM__COUNT
} PySym;

/* Kind of a node of a tree parsed with tree_sitter_python(). */
PySym pysym_of(TSNode n);
/* Whether n is a statement: a `*_statement` kind or a function, class or
 * decorated definition. */
bool pysym_is_statement(TSNode n);

/* Field names, resolved to field ids once (ts_node_child_by_field_name
 * looks the name up on every call). */
#define PYFIELD_NAMES(X)                                                                         \
  X(ALIAS, "alias") X(ARGUMENTS, "arguments") X(ATTRIBUTE, "attribute") X(BODY, "body")          \
  X(CONDITION, "condition") X(DEFINITION, "definition") X(FUNCTION, "function") X(KEY, "key")    \
  X(LEFT, "left") X(MODULE_NAME, "module_name") X(NAME, "name") X(OBJECT, "object")              \
  X(OPERATOR, "operator") X(PARAMETERS, "parameters") X(RIGHT, "right")                          \
  X(SUBSCRIPT, "subscript") X(SUPERCLASSES, "superclasses") X(VALUE, "value")                    \
  X(ALTERNATIVE, "alternative") X(CONSEQUENCE, "consequence") X(RETURN_TYPE, "return_type")

typedef enum {
#define PYFIELD__ENUM(id, name) PYFIELD_##id,
  PYFIELD_NAMES(PYFIELD__ENUM)
#undef PYFIELD__ENUM
  PYFIELD__COUNT
} PyField;

/* Child of a Python node by field: the fast form of ts_node_child_by_field_name. */
TSNode pysym_child(TSNode n, PyField f);
/* Field id of a field name, for comparing with ts_tree_cursor_current_field_id. */
TSFieldId pysym_field_id(PyField f);

#endif
