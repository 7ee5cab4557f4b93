;;; ascend-lsp.el --- Ascend NPU migration diagnostics through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (eglot "1.9"))
;; Keywords: languages, tools

;;; Commentary:

;; Registers the ascend-lsp language server with eglot.  ascend-lsp flags
;; the CUDA-only constructs of a PyTorch project (torch.cuda.*, .cuda(),
;; "cuda" device strings, NCCL, flash-attn, CUDA kernels, NVIDIA-only
;; dependencies) and offers quick fixes to the Huawei Ascend (torch_npu)
;; replacement.
;;
;;   (add-to-list 'load-path "/path/to/ascend-lsp/editors/emacs")
;;   (require 'ascend-lsp)
;;   (setq ascend-lsp-program "/path/to/ascend-lsp/build/ascend-lsp") ; unless on PATH
;;   (add-hook 'python-mode-hook #'eglot-ensure)                    ; or M-x eglot
;;
;; Diagnostics appear through flymake, quick fixes through
;; `eglot-code-actions'.  M-x ascend-lsp-report writes the migration report
;; of the project and shows it in another window, leaving point in the
;; source; M-x ascend-lsp-fix-all applies every safe fix of the buffer (in
;; the report's buffer: of the buffer the report was made from).
;;
;; Eglot (up to Emacs 29) runs one server per buffer: in the modes of
;; `ascend-lsp-modes', ascend-lsp replaces the default Python/C++ server.
;; Customize `ascend-lsp-modes' (before loading) to choose the modes.
;;
;; Settings go in `ascend-lsp-settings' (sent as initializationOptions) or,
;; per project, in `eglot-workspace-configuration':
;;   ((nil . ((eglot-workspace-configuration
;;             . (:ascend-lsp (:target (:chip "310P") :ignore ["ASC6"]))))))

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'jsonrpc)

(defgroup ascend-lsp nil
  "Ascend NPU migration diagnostics (ascend-lsp) through eglot."
  :group 'eglot
  :prefix "ascend-lsp-")

(defcustom ascend-lsp-program "ascend-lsp"
  "The ascend-lsp binary: a name looked up on `exec-path', or a file name."
  :type 'string)

(defcustom ascend-lsp-args nil
  "Extra arguments for `ascend-lsp-program'."
  :type '(repeat string))

(defcustom ascend-lsp-modes
  '(python-mode (python-ts-mode :language-id "python")
    pip-requirements-mode
    toml-mode (toml-ts-mode :language-id "toml") (conf-toml-mode :language-id "toml")
    (cuda-mode :language-id "cuda-cpp")
    c-mode (c-ts-mode :language-id "c")
    (c++-mode :language-id "cpp") (c++-ts-mode :language-id "cpp"))
  "Major modes managed by ascend-lsp, in `eglot-server-programs' form.
Set it before loading this file."
  :type '(repeat sexp))

(defcustom ascend-lsp-settings nil
  "The ascend-lsp settings, sent as initializationOptions.
A plist such as (:target (:chip \"910B\" :torchNpu \"2.7.1\" :mindiesd
:json-false) :select [] :ignore [\"ASC6\"] :lang \"en\")."
  :type 'plist)

(defcustom ascend-lsp-report-timeout 300
  "Seconds to wait for `ascend-lsp-report' on a large project."
  :type 'integer)

(defclass ascend-lsp-server (eglot-lsp-server) ()
  :documentation "The ascend-lsp language server.")

(cl-defmethod eglot-initialization-options ((_server ascend-lsp-server))
  "The initializationOptions: `ascend-lsp-settings', or an empty object."
  (or ascend-lsp-settings (make-hash-table)))

(defun ascend-lsp--contact (_interactive)
  "The eglot contact of ascend-lsp, read when a server starts."
  (cons 'ascend-lsp-server (cons ascend-lsp-program ascend-lsp-args)))

(add-to-list 'eglot-server-programs (cons ascend-lsp-modes #'ascend-lsp--contact))

(defun ascend-lsp--server ()
  "The ascend-lsp server of the current buffer, or nil."
  (let ((server (eglot-current-server)))
    (and server (object-of-class-p server 'ascend-lsp-server) server)))

(defvar-local ascend-lsp--report-source nil
  "In a report buffer, the buffer `ascend-lsp-report' was run from.")

(defun ascend-lsp--server-or-lose ()
  "The ascend-lsp server of the buffer, after sending it the pending edits."
  (let ((server (or (ascend-lsp--server)
                    (user-error "No ascend-lsp server manages %s (M-x eglot first)" (buffer-name)))))
    ;; eglot sends didChange from an idle timer: flush it so that the
    ;; server works on the text shown.
    (when (fboundp 'eglot--signal-textDocument/didChange)
      (eglot--signal-textDocument/didChange))
    server))

;;;###autoload
(defun ascend-lsp-report (&optional format)
  "Write the Ascend migration report of the project and open it.
FORMAT is \"md\" (the default), \"json\" or \"html\"; with a prefix
argument, ask for it.  Returns the server's result (a plist with
:path, :uri and :summary)."
  (interactive
   (list (and current-prefix-arg
              (completing-read "Report format: " '("md" "json" "html") nil t nil nil "md"))))
  (let* ((server (ascend-lsp--server-or-lose))
         (args (if format (vector (list :format format)) []))
         (result (let ((jsonrpc-default-request-timeout ascend-lsp-report-timeout))
                   (eglot-execute-command server 'ascend.generateReport args)))
         (path (plist-get result :path)))
    (unless path
      (error "ascend-lsp: the report command returned no path"))
    (when (called-interactively-p 'any)
      ;; shown, not selected: point stays in the source, where the
      ;; commands (fix-all, code actions) work
      (let ((source (current-buffer))
            (report (find-file-noselect path)))
        (with-current-buffer report
          (setq ascend-lsp--report-source source))
        (display-buffer report '(nil (inhibit-same-window . t)))))
    (message "ascend-lsp: migration report %s" path)
    result))

;;;###autoload
(defun ascend-lsp-fix-all ()
  "Apply every safe Ascend fix of the current buffer.
In a report opened by `ascend-lsp-report', fix the buffer the report
was made from."
  (interactive)
  (if (and (not (ascend-lsp--server)) (buffer-live-p ascend-lsp--report-source))
      (with-current-buffer ascend-lsp--report-source (ascend-lsp--fix-all))
    (ascend-lsp--fix-all)))

(defun ascend-lsp--fix-all ()
  "Apply every safe Ascend fix of the current buffer."
  (let* ((server (ascend-lsp--server-or-lose))
         ;; The user asked for these edits: no confirmation.
         (eglot-confirm-server-initiated-edits nil)
         (result (eglot-execute-command
                  server 'ascend.fixAll (vector (eglot--path-to-uri (buffer-file-name))))))
    (cond ((eq result t) t)
          ((and (listp result) (or (plist-get result :changes) (plist-get result :documentChanges)))
           (eglot--apply-workspace-edit result) t)
          (t (message "ascend-lsp: no safe fixes in this buffer") nil))))

(provide 'ascend-lsp)
;;; ascend-lsp.el ends here
