// The language of request files: its own id and file name ending, so that REST Client and httpYac
// (language `http`, `*.http`) can be installed beside this extension; VS Code prefers the longer match.
import type * as vscode from 'vscode';

export const REQUEST_FILE_LANGUAGE = 'bizdata-http';
export const REQUEST_FILE_EXTENSION = '.bizdata.http';
export const REQUEST_FILES: vscode.DocumentSelector = { language: REQUEST_FILE_LANGUAGE };
