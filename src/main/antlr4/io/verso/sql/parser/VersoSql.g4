// The statement language of docs/language.md. Keywords are case-insensitive; the
// lexer folds nothing, the AST builder lower-cases unquoted identifiers.
grammar VersoSql;

script
    : SEMI* statement (SEMI+ statement)* SEMI* EOF
    ;

statement
    : createTable
    | dropTable
    | alterTable
    | createIndex
    | dropIndex
    | deleteHistory
    | erase
    | showTables
    | showCreateTable
    | describe
    | createView
    | dropView
    | createDerived
    | showDerived
    | upsert
    | insert
    | update
    | delete
    | select
    | accessStatement
    | transactionControl
    | explain
    ;

// The plan of a statement (engine/plan): what it reads at which commit, the privileges it needs, the
// PostgreSQL it reads with; ANALYZE runs those reads under PostgreSQL's EXPLAIN ANALYZE.
explain
    : EXPLAIN ANALYZE? statement
    ;

// Framing of a request's statements as one transaction (MariaDB's spelling); see the engine.
transactionControl
    : START TRANSACTION                          #startTransaction
    | BEGIN WORK?                                #startTransaction
    | COMMIT WORK?                               #commitTransaction
    | ROLLBACK WORK?                             #rollbackTransaction
    ;

// ---- DDL ------------------------------------------------------------------------------------

createTable
    : CREATE TABLE (IF NOT EXISTS)? name=identifier
      LPAREN tableElement (COMMA tableElement)* RPAREN
      tableMode=(APPEND | UPSERT | VERSIONED)? orderingClause* (WITH SYSTEM VERSIONING)?
    ;

// CHECK first: "CONSTRAINT c CHECK (...)" would also read as a column named constraint of type c.
tableElement
    : (CONSTRAINT checkName=identifier)? CHECK LPAREN expression RPAREN     #checkElement
    | columnDefinition                                                      #columnElement
    | PRIMARY KEY LPAREN identifierList RPAREN                              #primaryKeyElement
    | ATTRIBUTE GROUP name=identifier LPAREN identifierList RPAREN orderingClause*  #groupElement
    | UNIQUE LPAREN identifierList RPAREN                                   #uniqueElement
    | PERIOD FOR SYSTEM_TIME LPAREN start=identifier COMMA end=identifier RPAREN  #periodElement
    | PERIOD FOR identifier LPAREN identifier COMMA identifier RPAREN      #applicationPeriodElement
    ;

orderingClause
    : kind=(VALID | REVISION) BY LPAREN identifierList RPAREN
    ;

columnDefinition
    : identifier typeName columnConstraint*
    ;

columnConstraint
    : NOT NULL            #notNullConstraint
    | DEFAULT literal     #defaultConstraint
    | PRIMARY KEY         #primaryKeyConstraint
    | NULL                #nullableConstraint
    | UNIQUE              #uniqueConstraint
    | (CONSTRAINT checkName=identifier)? CHECK LPAREN expression RPAREN  #checkConstraint
    // MariaDB's short form leaves out GENERATED ALWAYS.
    | (GENERATED ALWAYS)? AS ROW rowBound=(START | END)  #generatedConstraint
    ;

typeName
    : DOUBLE PRECISION                                                      #doubleType
    | TIMESTAMP (LPAREN INTEGER_VALUE RPAREN)? (WITH TIME ZONE | WITHOUT TIME ZONE)?  #timestampType
    | CHARACTER VARYING (LPAREN INTEGER_VALUE RPAREN)?                      #varyingType
    | identifier (LPAREN INTEGER_VALUE (COMMA INTEGER_VALUE)? RPAREN)?      #namedType
    ;

dropTable
    : DROP TABLE (IF EXISTS)? identifier
    ;

alterTable
    : ALTER TABLE table=identifier alterAction
    ;

alterAction
    : ADD SYSTEM VERSIONING                                                 #addSystemVersioning
    | DROP SYSTEM VERSIONING                                                #dropSystemVersioning
    | ADD COLUMN? columnDefinition (TO ATTRIBUTE GROUP group=identifier)?   #addColumn
    | DROP COLUMN? identifier                                               #dropColumn
    | RENAME COLUMN from=identifier TO to=identifier                        #renameColumn
    | RENAME TO identifier                                                  #renameTable
    | SET HISTORY RETENTION retention                                       #setRetention
    | RESET HISTORY RETENTION                                               #resetRetention
    | SET? tableMode=(APPEND | UPSERT | VERSIONED)                          #changeMode
    | orderingClause+                                                       #changeOrdering
    ;

retention
    : INTEGER_VALUE COMMITS
    | STRING
    ;

createIndex
    : CREATE UNIQUE? INDEX (IF NOT EXISTS)? name=identifier ON table=identifier
      LPAREN indexColumn (COMMA indexColumn)* RPAREN (SCOPE scope=(CURRENT | HISTORY | BOTH))?
    ;

indexColumn
    : identifier ordering=(ASC | DESC)?
    ;

createView
    : CREATE VIEW (IF NOT EXISTS)? name=identifier columnAliases? AS query
    ;

createDerived
    : CREATE DERIVED TABLE name=identifier (PRIMARY KEY LPAREN identifierList RPAREN)? AS query
    ;

showDerived : SHOW DERIVED TABLES ;

dropView
    : DROP VIEW (IF EXISTS)? identifier
    ;

dropIndex
    : DROP INDEX (IF EXISTS)? identifier
    ;

deleteHistory
    : DELETE HISTORY FROM identifier (BEFORE COMMIT commitRef | BEFORE SYSTEM_TIME valueExpression)?
    ;

erase
    : ERASE FROM identifier WHERE expression
    ;

showTables      : SHOW TABLES ;
showCreateTable : SHOW CREATE TABLE identifier ;
describe        : (DESCRIBE | DESC) identifier ;

// ---- access control (spec: Access control) --------------------------------------------------

accessStatement
    : CREATE ROLE identifier                                                 #createRole
    | DROP ROLE (IF EXISTS)? identifier                                      #dropRole
    | GRANT privilege ON grantTarget TO identifierList                       #grant
    | REVOKE privilege ON grantTarget FROM identifierList                    #revoke
    | SHOW GRANTS (FOR identifier)?                                          #showGrants
    ;

privilege
    : SELECT | WRITE | ADMIN | ALL
    ;

grantTarget
    : TABLE identifierList                                                   #tablesTarget
    | ALL TABLES                                                             #allTablesTarget
    ;

// ---- writes ---------------------------------------------------------------------------------

upsert
    : UPSERT INTO identifier (LPAREN identifierList RPAREN)? (valuesClause | query) (ATTRIBUTE GROUP group=identifier)?
    ;

insert
    : INSERT INTO identifier (LPAREN identifierList RPAREN)? (valuesClause | query)
    ;

valuesClause
    : VALUES valuesRow (COMMA valuesRow)*
    ;

valuesRow
    : LPAREN valuesItem (COMMA valuesItem)* RPAREN
    ;

// A batch may hold thousands of literals and parameters: the flat alternatives come first, so a plain
// value is predicted from the token after it without walking the expression grammar's precedence
// levels; anything else (arithmetic, casts, function calls) is an expression, evaluated once per row.
valuesItem
    : literal
    | QUESTION
    | MINUS QUESTION
    | DEFAULT
    | expression
    ;

update
    : UPDATE identifier SET setItem (COMMA setItem)* (WHERE where=expression)?
    ;

// SET column = DEFAULT gives the column its DEFAULT (NULL without one), as DEFAULT in VALUES does.
setItem
    : identifier EQ DEFAULT
    | assignment
    ;

assignment
    : identifier EQ expression
    ;

delete
    : DELETE FROM identifier (WHERE where=expression)? (AT LPAREN assignment (COMMA assignment)* RPAREN)?
    ;

// ---- reads ----------------------------------------------------------------------------------

select
    : query
    ;

query
    : with? queryExpression
      (ORDER BY sortItem (COMMA sortItem)*)?
      asOf*
      (LIMIT limit=expression)?
      (OFFSET offset=expression)?
    ;

with
    : WITH RECURSIVE? cte (COMMA cte)*
    ;

cte
    : name=identifier columnAliases? AS LPAREN query RPAREN
    ;

columnAliases
    : LPAREN identifierList RPAREN
    ;

// INTERSECT binds tighter than UNION and EXCEPT, as in PostgreSQL.
queryExpression
    : queryPrimary                                                                              #queryTermDefault
    | left=queryExpression op=INTERSECT quantifier=(ALL | DISTINCT)? right=queryExpression      #setOperation
    | left=queryExpression op=(UNION | EXCEPT) quantifier=(ALL | DISTINCT)? right=queryExpression  #setOperation
    ;

queryPrimary
    : querySpecification                         #block
    | LPAREN query RPAREN                        #nestedQuery
    ;

querySpecification
    : SELECT quantifier=(ALL | DISTINCT)? selectItem (COMMA selectItem)*
      (FROM fromItem (COMMA fromItem)*)?
      (WHERE where=expression)?
      (GROUP BY groupBy+=expression (COMMA groupBy+=expression)*)?
      (HAVING having=expression)?
      (WINDOW windowDefinition (COMMA windowDefinition)*)?
    ;

windowDefinition
    : name=identifier AS LPAREN windowSpec RPAREN
    ;

selectItem
    : ASTERISK                                   #selectAll
    | qualifier=identifier DOT ASTERISK          #selectAllOf
    | expression (AS? alias=identifier)?         #selectExpression
    ;

fromItem
    : left=fromItem CROSS JOIN right=fromItem                                  #crossJoin
    | left=fromItem joinType JOIN right=fromItem joinCriteria                  #qualifiedJoin
    | fromPrimary                                                              #fromDefault
    ;

joinType
    : INNER?
    | LEFT OUTER?
    | RIGHT OUTER?
    | FULL OUTER?
    ;

joinCriteria
    : ON expression
    | USING LPAREN identifierList RPAREN
    ;

fromPrimary
    : relationPrimary systemTime? asOf* (AS? alias=identifier columnAliases?)?       #relation
    | LPAREN query RPAREN systemTime? asOf* AS? alias=identifier columnAliases?      #derivedTable
    | LPAREN fromItem RPAREN                                             #parenthesizedFrom
    | functionName LPAREN (expression (COMMA expression)*)? RPAREN (AS? alias=identifier columnAliases?)?  #functionTable
    ;

relationPrimary
    : HISTORY LPAREN qualifiedName RPAREN        #historyRelation
    | CHANGES LPAREN qualifiedName RPAREN        #changesRelation
    | qualifiedName                              #tableRelation
    ;

asOf
    : AS OF COMMIT commitRef                     #asOfCommit
    | AS OF TIMESTAMP valueExpression            #asOfTimestamp
    ;

// MariaDB's FOR SYSTEM_TIME, after the table name and before the alias.
systemTime
    : FOR SYSTEM_TIME AS OF TRANSACTION valueExpression              #systemTimeTransaction
    | FOR SYSTEM_TIME AS OF valueExpression                          #systemTimeAsOf
    | FOR SYSTEM_TIME FROM from=valueExpression TO to=valueExpression  #systemTimeFromTo
    | FOR SYSTEM_TIME BETWEEN from=valueExpression AND to=valueExpression  #systemTimeBetween
    | FOR SYSTEM_TIME ALL                                            #systemTimeAll
    ;

commitRef
    : MINUS? number
    | QUESTION
    | STRING
    | identifier
    ;

sortItem
    : expression ordering=(ASC | DESC)? (NULLS nullOrdering=(FIRST | LAST))?
    ;

qualifiedName
    : identifier (DOT identifier)*
    ;

windowSpec
    : base=identifier?
      (PARTITION BY partition+=expression (COMMA partition+=expression)*)?
      (ORDER BY sortItem (COMMA sortItem)*)?
      windowFrame?
    ;

windowFrame
    : unit=(ROWS | RANGE) start=frameBound
    | unit=(ROWS | RANGE) BETWEEN start=frameBound AND end=frameBound
    ;

frameBound
    : UNBOUNDED boundType=(PRECEDING | FOLLOWING)        #unboundedFrame
    | CURRENT ROW                                       #currentRowBound
    | valueExpression boundType=(PRECEDING | FOLLOWING)  #boundedFrame
    ;

// ---- expressions ----------------------------------------------------------------------------

expression
    : booleanExpression
    ;

booleanExpression
    : NOT booleanExpression                                        #logicalNot
    | left=booleanExpression op=AND right=booleanExpression        #logicalBinary
    | left=booleanExpression op=OR right=booleanExpression         #logicalBinary
    | predicated                                                   #predicatedExpression
    ;

predicated
    : valueExpression predicate?
    ;

predicate
    : comparisonOperator quantifier=(ANY | ALL | SOME) LPAREN query RPAREN       #quantifiedComparison
    | comparisonOperator right=valueExpression                                  #comparison
    | NOT? BETWEEN lower=valueExpression AND upper=valueExpression              #between
    | NOT? IN LPAREN query RPAREN                                               #inSubquery
    | NOT? IN LPAREN expression (COMMA expression)* RPAREN                      #inList
    | NOT? op=(LIKE | ILIKE) pattern=valueExpression                            #like
    | IS NOT? NULL                                                              #nullPredicate
    | IS NOT? DISTINCT FROM right=valueExpression                               #distinctFrom
    | IS NOT? value=(TRUE | FALSE)                                              #booleanTest
    ;

valueExpression
    : primaryExpression                                                         #valueDefault
    | op=(MINUS | PLUS) valueExpression                                         #arithmeticUnary
    | left=valueExpression op=(ARROW | DARROW | HASH_ARROW | HASH_DARROW) right=valueExpression  #arithmeticBinary
    | left=valueExpression op=(ASTERISK | SLASH | PERCENT) right=valueExpression  #arithmeticBinary
    | left=valueExpression op=(PLUS | MINUS) right=valueExpression              #arithmeticBinary
    | left=valueExpression op=(CONCAT | CONTAINS) right=valueExpression         #arithmeticBinary
    ;

primaryExpression
    : NULL                                                                      #nullLiteral
    | (TRUE | FALSE)                                                            #booleanLiteral
    | number                                                                    #numericLiteral
    | STRING                                                                    #stringLiteral
    | kind=(DATE | TIMESTAMP | TIMESTAMPTZ | INTERVAL) STRING                   #typedLiteral
    | QUESTION                                                                  #parameter
    | CAST LPAREN expression AS typeName RPAREN                                 #cast
    | primaryExpression DOUBLE_COLON typeName                                   #castOperator
    | primaryExpression LBRACKET index=expression RBRACKET                      #subscript
    | CASE operand=expression? whenClause+ (ELSE elseExpression=expression)? END  #caseExpression
    | EXISTS LPAREN query RPAREN                                                #exists
    | LPAREN query RPAREN                                                       #scalarSubquery
    | EXTRACT LPAREN field=identifier FROM valueExpression RPAREN               #extract
    | POSITION LPAREN needle=valueExpression IN haystack=valueExpression RPAREN #position
    | SUBSTRING LPAREN valueExpression FROM from=valueExpression (FOR forLength=valueExpression)? RPAREN  #substringFrom
    | TRIM LPAREN side=(BOTH | LEADING | TRAILING)? chars=valueExpression? FROM valueExpression RPAREN  #trimFrom
    | identifier LPAREN ASTERISK RPAREN filter? over?                          #countStar
    | functionName LPAREN (quantifier=(ALL | DISTINCT)? expression (COMMA expression)*
          (ORDER BY argOrder+=sortItem (COMMA argOrder+=sortItem)*)?)? RPAREN
          (WITHIN GROUP LPAREN ORDER BY withinGroup+=sortItem (COMMA withinGroup+=sortItem)* RPAREN)?
          filter? over?                                                         #functionCall
    | identifier (DOT identifier)+                                              #dereference
    | identifier                                                                #columnReference
    | LPAREN expression RPAREN                                                  #parenthesized
    ;

// left() and right() are functions as well as join keywords.
functionName
    : identifier
    | LEFT
    | RIGHT
    ;

filter
    : FILTER LPAREN WHERE expression RPAREN
    ;

over
    : OVER LPAREN windowSpec RPAREN
    | OVER windowName=identifier
    ;

whenClause
    : WHEN condition=expression THEN result=expression
    ;

comparisonOperator
    : EQ | NEQ | LT | LTE | GT | GTE
    ;

literal
    : MINUS? number
    | STRING
    | (TRUE | FALSE)
    | NULL
    | (DATE | TIMESTAMP | TIMESTAMPTZ | INTERVAL) STRING
    ;

number
    : DECIMAL_VALUE
    | INTEGER_VALUE
    ;

identifierList
    : identifier (COMMA identifier)*
    ;

identifier
    : IDENTIFIER               #unquotedIdentifier
    | QUOTED_IDENTIFIER        #quotedIdentifier
    | nonReserved              #nonReservedIdentifier
    ;

// Keywords that stay usable as names.
nonReserved
    : ADD | APPEND | ASC | ATTRIBUTE | BOTH | COLUMN | COMMIT | CURRENT | DATE | DESC | DESCRIBE
    | FIRST | GROUP | HISTORY | INDEX | KEY | LAST | NULLS | PRECISION | RENAME | REVISION
    | SCOPE | SHOW | TABLES | TIME | TIMESTAMP | UPSERT | VALID | VERSIONED | ZONE | BEFORE
    | OUTER | WITHOUT | AT | RETENTION | RESET | COMMITS | ERASE | CONSTRAINT
    | ROWS | RANGE | ROW | PRECEDING | FOLLOWING | UNBOUNDED | LEADING | TRAILING | TIMESTAMPTZ
    | INTERVAL | VIEW | CHARACTER | VARYING | EXTRACT | POSITION | SUBSTRING | TRIM
    | ROLE | GRANTS | WRITE | ADMIN
    | SYSTEM | VERSIONING | GENERATED | ALWAYS | START | PERIOD | TRANSACTION | BEGIN | WORK | ROLLBACK
    | CHANGES | DERIVED | EXPLAIN | ANALYZE | RECURSIVE
    ;

// ---- lexer ----------------------------------------------------------------------------------

EXPLAIN: E X P L A I N; ANALYZE: A N A L Y Z E;
ADD: A D D; ALWAYS: A L W A Y S; BEGIN: B E G I N; GENERATED: G E N E R A T E D; PERIOD: P E R I O D;
ROLLBACK: R O L L B A C K; START: S T A R T; SYSTEM: S Y S T E M; SYSTEM_TIME: S Y S T E M '_' T I M E;
TRANSACTION: T R A N S A C T I O N; VERSIONING: V E R S I O N I N G; WORK: W O R K; ALL: A L L; ANY: A N Y; CHARACTER: C H A R A C T E R; CHECK: C H E C K; CONSTRAINT: C O N S T R A I N T; CROSS: C R O S S;
EXCEPT: E X C E P T; EXTRACT: E X T R A C T; FILTER: F I L T E R; FOLLOWING: F O L L O W I N G; FOR: F O R; FULL: F U L L;
INTERSECT: I N T E R S E C T; INTERVAL: I N T E R V A L; LEADING: L E A D I N G; OVER: O V E R; PARTITION: P A R T I T I O N;
POSITION: P O S I T I O N; PRECEDING: P R E C E D I N G; RANGE: R A N G E; RIGHT: R I G H T; ROW: R O W; ROWS: R O W S;
SOME: S O M E; SUBSTRING: S U B S T R I N G; TIMESTAMPTZ: T I M E S T A M P T Z; TRAILING: T R A I L I N G; TRIM: T R I M;
UNBOUNDED: U N B O U N D E D; UNION: U N I O N; UNIQUE: U N I Q U E; USING: U S I N G; VARYING: V A R Y I N G; VIEW: V I E W;
WINDOW: W I N D O W; WITHIN: W I T H I N; ALTER: A L T E R; AND: A N D; APPEND: A P P E N D; AS: A S; ASC: A S C;
AT: A T; ATTRIBUTE: A T T R I B U T E; BEFORE: B E F O R E; BETWEEN: B E T W E E N;
BOTH: B O T H; BY: B Y; CASE: C A S E; CAST: C A S T; COLUMN: C O L U M N; COMMIT: C O M M I T; COMMITS: C O M M I T S;
CREATE: C R E A T E; CURRENT: C U R R E N T; DATE: D A T E; DEFAULT: D E F A U L T;
DELETE: D E L E T E; DESC: D E S C; DESCRIBE: D E S C R I B E; DISTINCT: D I S T I N C T;
DOUBLE: D O U B L E; DROP: D R O P; ERASE: E R A S E; ELSE: E L S E; END: E N D; EXISTS: E X I S T S;
FALSE: F A L S E; FIRST: F I R S T; FROM: F R O M; GROUP: G R O U P; HAVING: H A V I N G;
RECURSIVE: R E C U R S I V E;
HISTORY: H I S T O R Y; CHANGES: C H A N G E S; DERIVED: D E R I V E D; IF: I F; ILIKE: I L I K E; IN: I N; INDEX: I N D E X;
INNER: I N N E R; INSERT: I N S E R T; INTO: I N T O; IS: I S; JOIN: J O I N; KEY: K E Y;
LAST: L A S T; LEFT: L E F T; LIKE: L I K E; LIMIT: L I M I T; NOT: N O T; NULL: N U L L;
NULLS: N U L L S; OF: O F; OFFSET: O F F S E T; ON: O N; OR: O R; ORDER: O R D E R;
OUTER: O U T E R; PRECISION: P R E C I S I O N; PRIMARY: P R I M A R Y; RENAME: R E N A M E;
RESET: R E S E T; RETENTION: R E T E N T I O N; REVISION: R E V I S I O N; SCOPE: S C O P E; SELECT: S E L E C T; SET: S E T; SHOW: S H O W;
TABLE: T A B L E; TABLES: T A B L E S; THEN: T H E N; TIME: T I M E;
TIMESTAMP: T I M E S T A M P; TO: T O; TRUE: T R U E; UPDATE: U P D A T E;
UPSERT: U P S E R T; VALID: V A L I D; VALUES: V A L U E S; VERSIONED: V E R S I O N E D;
WHEN: W H E N; WHERE: W H E R E; WITH: W I T H; WITHOUT: W I T H O U T; ZONE: Z O N E;
// Access control.
ADMIN: A D M I N; GRANT: G R A N T; GRANTS: G R A N T S; REVOKE: R E V O K E;
ROLE: R O L E; WRITE: W R I T E;

EQ: '='; NEQ: '<>' | '!='; LT: '<'; LTE: '<='; GT: '>'; GTE: '>=';
PLUS: '+'; MINUS: '-'; ASTERISK: '*'; SLASH: '/'; PERCENT: '%'; CONCAT: '||';
DOUBLE_COLON: '::'; DARROW: '->>'; ARROW: '->'; HASH_DARROW: '#>>'; HASH_ARROW: '#>'; CONTAINS: '@>';
LPAREN: '('; RPAREN: ')'; LBRACKET: '['; RBRACKET: ']'; COMMA: ','; DOT: '.'; SEMI: ';'; QUESTION: '?';

STRING: '\'' ( ~'\'' | '\'\'' )* '\'';
INTEGER_VALUE: DIGIT+;
DECIMAL_VALUE: DIGIT+ '.' DIGIT* EXPONENT? | '.' DIGIT+ EXPONENT? | DIGIT+ EXPONENT;
IDENTIFIER: (LETTER | '_') (LETTER | DIGIT | '_')*;
QUOTED_IDENTIFIER: '"' ( ~'"' | '""' )* '"';

fragment EXPONENT: [eE] [+-]? DIGIT+;
fragment DIGIT: [0-9];
fragment LETTER: [a-zA-Z];
fragment A: [aA]; fragment B: [bB]; fragment C: [cC]; fragment D: [dD]; fragment E: [eE];
fragment F: [fF]; fragment G: [gG]; fragment H: [hH]; fragment I: [iI]; fragment J: [jJ];
fragment K: [kK]; fragment L: [lL]; fragment M: [mM]; fragment N: [nN]; fragment O: [oO];
fragment P: [pP]; fragment Q: [qQ]; fragment R: [rR]; fragment S: [sS]; fragment T: [tT];
fragment U: [uU]; fragment V: [vV]; fragment W: [wW]; fragment X: [xX]; fragment Y: [yY];
fragment Z: [zZ];

LINE_COMMENT: '--' ~[\r\n]* -> channel(HIDDEN);
BLOCK_COMMENT: '/*' .*? '*/' -> channel(HIDDEN);
WS: [ \t\r\n]+ -> channel(HIDDEN);

// Anything else is a token the parser rejects with its position.
UNRECOGNIZED: .;
